import { describe, expect, it } from 'vitest';
import { dayLabel, fromLocalInput, isCommunityEvent, isEventOver, openSpotsText, relativeTime, timeInZone, toLocalInput } from './event-format';

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

  it('says which places are open, and none when unlimited or full', () => {
    expect(openSpotsText({ goalies: 1, skaters: 0 })).toBe('1 goalie spot open');
    expect(openSpotsText({ goalies: 0, skaters: 2 })).toBe('2 skater spots open');
    expect(openSpotsText({ goalies: 2, skaters: 1 })).toBe('2 goalie spots open · 1 skater spot open');
    expect(openSpotsText({ goalies: null, skaters: null })).toBeNull();
    expect(openSpotsText({ goalies: 0, skaters: null })).toBeNull();
  });

  it("reads a time on the rink's clock", () => {
    expect(timeInZone('2030-03-10T02:30:00Z', 'America/Toronto')).toMatch(/9:30/);
    expect(timeInZone('2030-03-10T02:30:00Z', 'Not/AZone')).not.toBe('');
  });
});
