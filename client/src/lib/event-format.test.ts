import { describe, expect, it } from 'vitest';
import { eventWhen, isCommunityEvent, isEventOver, openSpotsText, relativeTime } from './event-format';

const at = (y: number, mo: number, d: number, h = 0, mi = 0) => new Date(y, mo - 1, d, h, mi);

describe('event formatting', () => {
  it('says when an event is on the device\u2019s clock, naming nearby days', () => {
    const now = at(2030, 3, 10, 9);
    expect(eventWhen({ startDate: at(2030, 3, 10, 19).toISOString(), endDate: at(2030, 3, 10, 20, 30).toISOString() }, now)).toMatch(/^Today · 7:00\s?–\s?8:30\sPM$/);
    expect(eventWhen({ startDate: at(2030, 3, 16, 19).toISOString(), endDate: null }, now)).toMatch(/^Sat, Mar 16 · 7:00\sPM$/);
    expect(eventWhen({ startDate: at(2031, 3, 16, 19).toISOString(), endDate: null }, now)).toMatch(/^Sun, Mar 16, 2031 · 7:00\sPM$/);
  });

  it('counts down in calendar days beyond a day', () => {
    const now = at(2030, 3, 10, 9);
    expect(relativeTime(at(2030, 3, 11, 19).toISOString(), now)).toBe('tomorrow');
    expect(relativeTime(at(2030, 3, 13, 8).toISOString(), now)).toBe('in 3 days');
    expect(relativeTime(at(2030, 3, 10, 12).toISOString(), now)).toBe('in 3 hours');
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
});
