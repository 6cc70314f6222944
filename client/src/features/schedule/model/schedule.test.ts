import { describe, expect, it } from 'vitest';
import type { ScheduleItem } from '../../../lib/api-types';
import { answerCall, answerLabel, answersFor, startOfWeek, stateLabel, stateTone, weekDays, zonedWhen } from './schedule';

function item(over: Partial<ScheduleItem> = {}): ScheduleItem {
  return {
    kind: 'EVENT',
    id: 'e1',
    title: 'Tuesday pickup',
    startsAt: '2026-11-25T02:30:00Z',
    endsAt: '2026-11-25T04:00:00Z',
    timeZone: 'America/Toronto',
    place: 'Maple Arena',
    facilityId: 'f1',
    facilityName: 'Maple Arena',
    eventType: 'OTHER',
    status: 'SCHEDULED',
    homeName: null,
    awayName: null,
    homeScore: null,
    awayScore: null,
    teamName: null,
    side: null,
    seasonName: null,
    myState: 'NOT_ANSWERED',
    rosterId: null,
    waitlistRank: null,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    ...over,
  };
}

const BEFORE = new Date('2026-11-20T00:00:00Z');

describe('my standing', () => {
  it('reads as a person says it', () => {
    expect(stateLabel(item({ myState: 'WAITLISTED', waitlistRank: 2 }))).toBe('Waitlist #2');
    expect(stateLabel(item({ myState: 'ATTENDING' }))).toBe('In');
    expect(stateLabel(item({ myState: 'NOT_ANSWERED' }))).toBe('Not answered');
    expect(stateLabel(item({ myState: null }))).toBeNull();
  });

  it('never shows a cancelled event as a green "In" (Next up and My schedule alike)', () => {
    const cancelled = item({ status: 'CANCELLED', myState: 'ATTENDING' });
    expect(stateLabel(cancelled)).toBe('Was in');
    expect(stateTone('ATTENDING', 'CANCELLED')).toBe('out');
    expect(stateLabel(item({ status: 'CANCELLED', myState: 'WAITLISTED', waitlistRank: 1 }))).toBe('Was waitlisted');
    expect(stateTone('WAITLISTED', 'CANCELLED')).toBe('out');
    expect(stateTone('ATTENDING', 'SCHEDULED')).toBe('in');
    expect(stateTone('ATTENDING')).toBe('in');
  });

  it('offers one tap to answer an event, and none on a cancelled or a past event', () => {
    expect(answersFor(item(), BEFORE)).toEqual(['ATTENDING', 'DECLINED']);
    expect(answersFor(item({ myState: 'WAITLISTED' }), BEFORE)).toEqual(['DECLINED']);
    expect(answersFor(item({ myState: 'DECLINED' }), BEFORE)).toEqual(['ATTENDING']);
    expect(answersFor(item({ status: 'CANCELLED' }), BEFORE)).toEqual([]);
    expect(answersFor(item(), new Date('2026-12-01T00:00:00Z'))).toEqual([]);
    expect(answersFor(item({ myState: null }), BEFORE)).toEqual([]);
    expect(answerLabel('DECLINED', 'WAITLISTED')).toBe('Leave waitlist');
    expect(answerLabel('ATTENDING', 'NOT_ANSWERED')).toBe("I'm in");
  });

  it("offers the same taps on a league game of my roster, as my availability, but not on one that is over or off", () => {
    const game = (over: Partial<ScheduleItem> = {}) => item({ kind: 'GAME', id: 'g1', eventType: null, rosterId: 'r-1', ...over });
    expect(answersFor(game(), BEFORE)).toEqual(['ATTENDING', 'DECLINED']);
    expect(answersFor(game({ myState: 'ATTENDING' }), BEFORE)).toEqual(['DECLINED']);
    expect(answersFor(game({ myState: 'DECLINED' }), BEFORE)).toEqual(['ATTENDING']);
    expect(stateLabel(game({ myState: 'DECLINED' }))).toBe('Out');
    expect(stateLabel(game())).toBe('Not answered');
    // No roster to answer on (someone else's schedule), or nothing left to answer.
    expect(answersFor(game({ rosterId: null }), BEFORE)).toEqual([]);
    for (const status of ['FINAL', 'CANCELLED', 'POSTPONED']) expect(answersFor(game({ status }), BEFORE)).toEqual([]);
    expect(answersFor(game(), new Date('2026-12-01T00:00:00Z'))).toEqual([]);
  });
});

describe('where a tap goes', () => {
  it("sends an event's answer as my RSVP, with an idempotency key", () => {
    expect(answerCall(item({ id: 'e 1' }), 'ATTENDING', 'u-me')).toEqual({ path: '/events/e%201/rsvp', body: { action: 'ATTENDING' }, keyed: true });
    expect(answerCall(item(), 'DECLINED', 'u-me').body).toEqual({ action: 'DECLINED' });
  });

  it("sends a league game's answer as my availability on the item's roster", () => {
    const game = item({ kind: 'GAME', id: 'g1', rosterId: 'r-1' });
    expect(answerCall(game, 'ATTENDING', 'u-me')).toEqual({ path: '/rosters/r-1/availability/g1/players/u-me', body: { answer: 'IN' }, keyed: false });
    expect(answerCall(game, 'DECLINED', 'u-me').body).toEqual({ answer: 'OUT' });
  });
});

describe('times at the rink', () => {
  it('shows the rink clock and names its zone when the browser is elsewhere', () => {
    const when = zonedWhen(item(), 'Europe/Helsinki');
    expect(when.time).toMatch(/9:30/);
    expect(when.zone).toMatch(/EST|GMT-5/);
    expect(when.dayKey).toBe('2026-11-24');
  });

  it('names no zone when the browser keeps the rink clock', () => {
    expect(zonedWhen(item(), 'America/Toronto').zone).toBeNull();
    expect(zonedWhen(item(), 'America/New_York').zone).toBeNull();
  });

  it('falls back to the browser zone for an event away from a rink', () => {
    expect(zonedWhen(item({ timeZone: null }), 'UTC').dayKey).toBe('2026-11-25');
  });
});

describe('a week', () => {
  it('starts on Monday and puts each item on its rink day', () => {
    const monday = startOfWeek(new Date(2026, 10, 26));
    expect(monday.getDay()).toBe(1);
    expect(monday.getDate()).toBe(23);
    const days = weekDays([item()], monday, 'America/Toronto');
    expect(days).toHaveLength(7);
    expect(days.map((d) => d.items.length)).toEqual([0, 1, 0, 0, 0, 0, 0]);
  });
});
