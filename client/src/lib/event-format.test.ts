import { describe, expect, it } from 'vitest';
import { dayLabel, fromLocalInput, isCommunityEvent, isEventOver, relativeTime, toLocalInput } from './event-format';

const at = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi);

describe('event formatting', () => {
  it('names nearby days', () => {
    const now = at(2030, 3, 10, 9);
    expect(dayLabel(at(2030, 3, 10, 21).toISOString(), now)).toBe('Today');
    expect(dayLabel(at(2030, 3, 11, 1).toISOString(), now)).toBe('Tomorrow');
    expect(dayLabel(at(2030, 3, 9, 23).toISOString(), now)).toBe('Yesterday');
  });

  it('counts down in calendar days beyond a day', () => {
    const now = at(2030, 3, 10, 9);
    expect(relativeTime(at(2030, 3, 11, 19).toISOString(), now)).toBe('tomorrow');
    expect(relativeTime(at(2030, 3, 13, 8).toISOString(), now)).toBe('in 3 days');
    expect(relativeTime(at(2030, 3, 10, 12).toISOString(), now)).toBe('in 3 hours');
  });

  it('round-trips datetime-local values', () => {
    const iso = fromLocalInput('2030-03-10T19:30');
    expect(iso).not.toBeNull();
    expect(toLocalInput(iso)).toBe('2030-03-10T19:30');
    expect(fromLocalInput('')).toBeNull();
  });

  it('treats an event without an end as over two hours after it starts', () => {
    const start = at(2030, 3, 10, 19).toISOString();
    expect(isEventOver({ startDate: start, endDate: null }, at(2030, 3, 10, 20, 59))).toBe(false);
    expect(isEventOver({ startDate: start, endDate: null }, at(2030, 3, 10, 21, 1))).toBe(true);
  });

  it('calls an event at a rink that the rink does not list a community event, and nothing else', () => {
    expect(isCommunityEvent({ facilityId: 'f-1', hostedByFacility: false })).toBe(true);
    expect(isCommunityEvent({ facilityId: 'f-1', hostedByFacility: true })).toBe(false);
    // No rink: just an event.
    expect(isCommunityEvent({ facilityId: null, hostedByFacility: false })).toBe(false);
  });
});
