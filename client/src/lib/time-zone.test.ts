import { describe, expect, it } from 'vitest';
import {
  dayInRange,
  dayKey,
  formatDayRange,
  formatIn,
  fromLocalInput,
  isoToZonedDay,
  rinkClock,
  rinkDateTile,
  rinkDayKey,
  rinkDayLabel,
  rinkTimeRange,
  shownZone,
  toLocalInput,
  wallClock,
  zonedDayToIso,
  zoneLabel,
  zoneName,
  zoneOffsetName,
} from './time-zone';

// The device is in Berlin, the rink in Toronto: 2026-12-01T00:30Z is
// Monday 7:30 PM at the rink and Tuesday 1:30 AM on the device.
const DEVICE = 'Europe/Berlin';
const RINK = 'America/Toronto';
const START = '2026-12-01T00:30:00Z';
const END = '2026-12-01T02:00:00Z';

describe('rink time', () => {
  it('shows the rink\u2019s clock, labelled with its zone, when the device is elsewhere', () => {
    expect(rinkClock(START, RINK, DEVICE)).toMatch(/^7:30\sPM$/);
    expect(zoneLabel(Date.parse(START), RINK, DEVICE)).toBe('EST');
    expect(rinkTimeRange(START, END, RINK, DEVICE)).toMatch(/^7:30\s?–\s?9:00\sPM EST$/);
  });

  it('puts the day on the rink\u2019s calendar, not the device\u2019s', () => {
    expect(rinkDateTile(START, RINK, DEVICE)).toEqual({ weekday: 'Mon', day: '30', month: 'Nov' });
    expect(rinkDateTile(START, DEVICE, DEVICE)).toEqual({ weekday: 'Tue', day: '1', month: 'Dec' });
  });

  it('groups and names schedule days on the rink\u2019s calendar', () => {
    expect(rinkDayKey(START, RINK, DEVICE)).toBe('2026-11-30');
    expect(rinkDayKey(START, DEVICE, DEVICE)).toBe('2026-12-01');
    // Monday noon at the rink: the 7:30 PM game is today there, though the device already reads Tuesday.
    const monday = new Date('2026-11-30T17:00:00Z');
    expect(rinkDayLabel(START, RINK, monday, DEVICE)).toBe('Today');
    expect(rinkDayLabel(START, DEVICE, monday, DEVICE)).toBe('Tomorrow');
    expect(rinkDayLabel('2026-12-05T00:30:00Z', RINK, monday, DEVICE)).toMatch(/^Friday, December 4$/);
    expect(rinkDayLabel('2027-01-05T00:30:00Z', RINK, monday, DEVICE)).toMatch(/2027/);
  });

  it('has no label when the device reads the rink\u2019s clock', () => {
    expect(rinkTimeRange(START, END, RINK, RINK)).toMatch(/^7:30\s?–\s?9:00\sPM$/);
    // Another zone name, the same clock at that instant: no label either.
    expect(zoneLabel(Date.parse(START), 'America/New_York', RINK)).toBeNull();
  });

  it('falls back to the device\u2019s clock, unlabelled, without a rink or with a zone it cannot read', () => {
    expect(shownZone(null, DEVICE)).toBe(DEVICE);
    expect(shownZone('Not/A_Zone', DEVICE)).toBe(DEVICE);
    expect(rinkTimeRange(START, null, null, DEVICE)).toMatch(/^1:30\sAM$/);
  });

  it('drops the end when it falls on another day at the rink', () => {
    expect(rinkTimeRange('2026-12-01T04:00:00Z', '2026-12-01T06:00:00Z', RINK, DEVICE)).toMatch(/^11:00\sPM EST$/);
  });
});


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

describe('the device\u2019s clock', () => {
  const at = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi);

  it('names nearby days without a rink', () => {
    const now = at(2030, 3, 10, 9);
    expect(rinkDayLabel(at(2030, 3, 10, 21).toISOString(), null, now)).toBe('Today');
    expect(rinkDayLabel(at(2030, 3, 11, 1).toISOString(), null, now)).toBe('Tomorrow');
    expect(rinkDayLabel(at(2030, 3, 9, 23).toISOString(), null, now)).toBe('Yesterday');
  });

  it('round-trips datetime-local values', () => {
    const iso = fromLocalInput('2030-03-10T19:30');
    expect(iso).not.toBeNull();
    expect(toLocalInput(iso)).toBe('2030-03-10T19:30');
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });
});

describe('reading an instant in a zone', () => {
  it("reads a time on the rink's clock, and the device's for a zone it cannot read", () => {
    expect(rinkClock('2030-03-10T02:30:00Z', 'America/Toronto')).toMatch(/9:30/);
    expect(rinkClock('2030-03-10T02:30:00Z', 'Not/AZone')).not.toBe('');
    expect(formatIn('2030-03-10T02:30:00Z', 'Not/AZone', { hour: 'numeric' }, 'en-US')).toBe(formatIn('2030-03-10T02:30:00Z', null, { hour: 'numeric' }, 'en-US'));
    expect(formatIn('nonsense', 'UTC', { hour: 'numeric' })).toBe('');
  });

  it('puts an instant on a zone\u2019s calendar', () => {
    expect(dayKey(Date.parse('2026-11-25T02:30:00Z'), 'UTC')).toBe('2026-11-25');
    expect(dayKey('2026-11-25T02:30:00Z', 'America/Toronto')).toBe('2026-11-24');
    expect(dayKey('nonsense', 'UTC')).toBe('');
  });

  it('gives the wall clock of a zone, and none for a zone it cannot read', () => {
    expect(wallClock(Date.parse('2026-12-01T00:30:00Z'), 'America/Toronto')).toEqual({ year: 2026, month: 11, day: 30, hour: 19, minute: 30, second: 0 });
    expect(wallClock(Date.parse('2026-12-01T00:30:00Z'), 'Not/AZone')).toBeNull();
  });

  it('names a zone as people read it', () => {
    expect(zoneName('America/St_Johns')).toBe('America/St Johns');
  });

  it('names a zone\u2019s offset for the picker', () => {
    expect(zoneOffsetName('America/Toronto', Date.parse('2026-12-01T00:00:00Z'))).toBe('UTC-5');
    expect(zoneOffsetName('Not/AZone')).toBe('');
  });
});
