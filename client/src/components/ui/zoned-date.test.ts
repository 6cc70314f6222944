import { describe, expect, it } from 'vitest';
import { dayInRange, formatDayRange, isoToZonedDay, zonedDayToIso } from './zoned-date';

describe('zoned days', () => {
  it('starts a day at midnight in the rink’s zone, not the browser’s', () => {
    expect(zonedDayToIso('2026-09-01', 'America/Toronto', 'start')).toBe('2026-09-01T04:00:00Z');
    expect(zonedDayToIso('2026-12-01', 'America/Toronto', 'start')).toBe('2026-12-01T05:00:00Z');
    expect(zonedDayToIso('2026-09-01', 'Europe/Helsinki', 'start')).toBe('2026-08-31T21:00:00Z');
  });

  it('ends a day a second before the next midnight', () => {
    expect(zonedDayToIso('2027-03-31', 'America/Chicago', 'end')).toBe('2027-04-01T04:59:59Z');
  });

  it('handles the day the clocks change', () => {
    // US DST starts 2027-03-14 at 02:00; midnight is still standard time.
    expect(zonedDayToIso('2027-03-14', 'America/New_York', 'start')).toBe('2027-03-14T05:00:00Z');
    expect(zonedDayToIso('2027-03-14', 'America/New_York', 'end')).toBe('2027-03-15T03:59:59Z');
  });

  it('reads an instant back as the rink’s day', () => {
    expect(isoToZonedDay('2026-09-01T04:00:00Z', 'America/Toronto')).toBe('2026-09-01');
    expect(isoToZonedDay('2027-04-01T04:59:59Z', 'America/Chicago')).toBe('2027-03-31');
    expect(isoToZonedDay('nonsense', 'UTC')).toBe('');
  });

  it('refuses malformed days', () => {
    expect(zonedDayToIso('2026-02-30', 'UTC', 'start')).toBeNull();
    expect(zonedDayToIso('next tuesday', 'UTC', 'start')).toBeNull();
  });

  it('formats a range in the rink’s zone', () => {
    // 03:59:59Z on April 1 is still March 31 in Toronto (UTC−4).
    expect(formatDayRange('2026-09-01T04:00:00Z', '2027-04-01T03:59:59Z', 'America/Toronto')).toBe('Sep 1, 2026 – Mar 31, 2027');
  });
});

describe('dayInRange', () => {
  it('takes the years the server takes, so 9999-12-31 is said in words before it is sent', () => {
    expect(dayInRange('2026-09-01')).toBe(true);
    expect(dayInRange('1900-01-01')).toBe(true);
    expect(dayInRange('2200-12-31')).toBe(true);
    expect(dayInRange('9999-12-31')).toBe(false);
    expect(dayInRange('1899-12-31')).toBe(false);
    expect(dayInRange('')).toBe(false);
  });
});
