import { describe, expect, it } from 'vitest';
import type { EventViewer } from '../../../lib/api-types';
import { countsLine, deriveStanding, newestDoc, ordinal, overLimitNotes, spotsLeft, standingHeadline, waitingForMyPlace, waitlistByRole, wouldWaitlist } from './standing';
import type { AttendeeCounts, AttendeesDoc } from './types';

const counts = (over: Partial<AttendeeCounts> = {}): AttendeeCounts => ({
  skaters: 0,
  goalies: 0,
  maxSkaters: null,
  maxGoalies: null,
  waitlistSkaters: 0,
  waitlistGoalies: 0,
  ...over,
});

function doc(version: number, attending: string[], waitlist: Array<[string, number, 'CENTER' | 'GOALIE']> = []): AttendeesDoc {
  return {
    version,
    attending: attending.map((userId) => ({ userId, displayName: userId, position: 'LEFT_WING', respondedAt: '2026-11-01T00:00:00Z', isPaid: null })),
    waitlist: waitlist.map(([userId, rank, position]) => ({ userId, displayName: userId, position, rank, addedAt: '2026-11-01T00:00:00Z', regular: false })),
    counts: counts(),
  };
}

const viewer = (over: Partial<EventViewer> = {}): EventViewer => ({
  isOrganiser: false,
  canReadHistory: false,
  canHost: false,
  canCollectPayments: false,
  status: null,
  waitlistRank: null,
  position: null,
  isPaid: null,
  side: null,
  owesCents: null,
  paidCents: null,
  creditCents: null,
  currency: null,
  isRegular: false,
  ...over,
});

describe('countsLine', () => {
  it('reads like the spec: "9/10 skaters · 1/1 goalie · 4 waiting"', () => {
    expect(countsLine(counts({ skaters: 9, maxSkaters: 10, goalies: 1, maxGoalies: 1, waitlistSkaters: 3, waitlistGoalies: 1 }))).toBe(
      '9/10 skaters · 1/1 goalie · 4 waiting',
    );
  });

  it('drops the limit when unlimited, and the waiting part when nobody waits', () => {
    expect(countsLine(counts({ skaters: 1, goalies: 2 }))).toBe('1 skater · 2 goalies');
    expect(countsLine(counts({ skaters: 0, maxSkaters: 1 }))).toBe('0/1 skater · 0 goalies');
  });

  it('leaves goalies out of an event that takes none', () => {
    expect(countsLine(counts({ skaters: 4, maxSkaters: 20, maxGoalies: 0 }))).toBe('4/20 skaters');
  });
});

describe('spots', () => {
  it('counts open places per role, never below zero after a lowered limit', () => {
    expect(spotsLeft(counts({ skaters: 7, maxSkaters: 10 }), 'SKATER')).toBe(3);
    expect(spotsLeft(counts({ skaters: 12, maxSkaters: 10 }), 'SKATER')).toBe(0);
    expect(spotsLeft(counts({ goalies: 1 }), 'GOALIE')).toBeNull();
  });

  it('sends a newcomer to the waitlist when full or when people already wait', () => {
    expect(wouldWaitlist(counts({ skaters: 10, maxSkaters: 10 }), 'SKATER')).toBe(true);
    expect(wouldWaitlist(counts({ skaters: 9, maxSkaters: 10, waitlistSkaters: 1 }), 'SKATER')).toBe(true);
    expect(wouldWaitlist(counts({ skaters: 9, maxSkaters: 10, goalies: 2, maxGoalies: 2 }), 'SKATER')).toBe(false);
    expect(wouldWaitlist(counts({ skaters: 9, maxSkaters: 10, goalies: 2, maxGoalies: 2 }), 'GOALIE')).toBe(true);
  });
});

describe('deriveStanding', () => {
  it('reads my state and rank from the live document', () => {
    const d = doc(7, ['a'], [['b', 1, 'CENTER'], ['me', 2, 'CENTER'], ['g', 1, 'GOALIE']]);
    expect(deriveStanding({ userId: 'me', doc: d, reply: null, viewer: null, eventVersion: 0 })).toMatchObject({
      status: 'WAITLISTED',
      rank: 2,
      position: 'CENTER',
      source: 'live',
    });
    expect(deriveStanding({ userId: 'a', doc: d, reply: null, viewer: null, eventVersion: 0 })).toMatchObject({ status: 'ATTENDING', rank: null });
  });

  it('follows a promotion pushed after my reply (newest version wins)', () => {
    const reply = { status: 'WAITLISTED' as const, waitlistRank: 1, version: 4 };
    const before = deriveStanding({ userId: 'me', doc: doc(4, ['x'], [['me', 1, 'CENTER']]), reply, viewer: null, eventVersion: 3 });
    expect(before).toMatchObject({ status: 'WAITLISTED', rank: 1 });
    const after = deriveStanding({ userId: 'me', doc: doc(5, ['me']), reply, viewer: null, eventVersion: 3 });
    expect(after).toMatchObject({ status: 'ATTENDING', rank: null, version: 5 });
  });

  it('trusts my reply over an older document (the push has not arrived yet)', () => {
    const reply = { status: 'ATTENDING' as const, waitlistRank: null, version: 9 };
    const s = deriveStanding({ userId: 'me', doc: doc(8, []), reply, viewer: viewer({ position: 'GOALIE', status: 'ATTENDING' }), eventVersion: 8 });
    expect(s).toMatchObject({ status: 'ATTENDING', source: 'reply', position: 'GOALIE' });
  });

  it('uses the event viewer block when nothing newer is known', () => {
    const s = deriveStanding({ userId: 'me', doc: null, reply: null, viewer: viewer({ status: 'WAITLISTED', waitlistRank: 3, position: 'CENTER' }), eventVersion: 2 });
    expect(s).toMatchObject({ status: 'WAITLISTED', rank: 3, source: 'event' });
  });

  it('keeps DECLINED / REMOVED when the document no longer lists me', () => {
    const declined = { status: 'DECLINED' as const, waitlistRank: null, version: 6 };
    expect(deriveStanding({ userId: 'me', doc: doc(7, ['x']), reply: declined, viewer: null, eventVersion: 5 }).status).toBe('DECLINED');
    expect(deriveStanding({ userId: 'me', doc: doc(7, ['x']), reply: null, viewer: viewer({ status: 'REMOVED' }), eventVersion: 5 }).status).toBe('REMOVED');
  });

  it('does not keep a stale "attending" once a newer document leaves me out', () => {
    const s = deriveStanding({ userId: 'me', doc: doc(7, ['x']), reply: null, viewer: viewer({ status: 'ATTENDING' }), eventVersion: 5 });
    expect(s.status).toBeNull();
  });

  it('knows nothing without sources', () => {
    expect(deriveStanding({ userId: 'me', doc: null, reply: null, viewer: undefined, eventVersion: 0 })).toMatchObject({ status: null, source: 'none' });
  });
});

describe('helpers', () => {
  it('picks the newer document', () => {
    expect(newestDoc(doc(3, []), doc(5, []))?.version).toBe(5);
    expect(newestDoc(doc(6, []), doc(5, []))?.version).toBe(6);
    expect(newestDoc(null, doc(1, []))?.version).toBe(1);
    expect(newestDoc(null, undefined)).toBeNull();
  });

  it('splits the waitlist per role in rank order', () => {
    const d = doc(1, [], [['s2', 2, 'CENTER'], ['g1', 1, 'GOALIE'], ['s1', 1, 'CENTER']]);
    const { skaters, goalies } = waitlistByRole(d.waitlist);
    expect(skaters.map((w) => w.userId)).toEqual(['s1', 's2']);
    expect(goalies.map((w) => w.userId)).toEqual(['g1']);
  });

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']);
  });
});

describe('overLimitNotes', () => {
  it('says what a limit below the people in means, per role, and nothing otherwise', () => {
    expect(overLimitNotes(counts({ skaters: 10, maxSkaters: 8 }))).toEqual(['10 in, 8 skater places: nobody is removed; nobody new gets in until 3 leave.']);
    expect(overLimitNotes(counts({ goalies: 1, maxGoalies: 0 }))).toEqual(['1 in, no goalie places: nobody is removed; nobody new gets in.']);
    expect(overLimitNotes(counts({ skaters: 8, maxSkaters: 8, goalies: 2, maxGoalies: null }))).toEqual([]);
  });
});

describe('waitingForMyPlace', () => {
  const full = { skaters: 10, goalies: 1, maxSkaters: 10, maxGoalies: 1, waitlistSkaters: 3, waitlistGoalies: 0 };
  it('counts the line my place would go to', () => {
    expect(waitingForMyPlace(full, 'SKATER')).toBe(3);
    expect(waitingForMyPlace(full, 'GOALIE')).toBe(0);
  });
  it('is 0 when leaving promotes nobody: a role over its lowered limit, or no limit', () => {
    expect(waitingForMyPlace({ ...full, maxSkaters: 8 }, 'SKATER')).toBe(0);
    expect(waitingForMyPlace({ ...full, maxSkaters: null, waitlistSkaters: 0 }, 'SKATER')).toBe(0);
  });
});


describe('standingHeadline', () => {
  const open = { cancelled: false, over: false };
  it('is green "You\'re in" for a place at a live event', () => {
    expect(standingHeadline({ status: 'ATTENDING', rank: null }, open)).toEqual({ tone: 'in', title: "You're in" });
    expect(standingHeadline({ status: 'WAITLISTED', rank: 2 }, open)).toEqual({ tone: 'waiting', title: 'Waitlisted #2' });
  });

  it('never shows a cancelled event as "You\'re in", whatever the answer was', () => {
    for (const status of ['ATTENDING', 'WAITLISTED', 'DECLINED', null] as const) {
      expect(standingHeadline({ status, rank: null }, { cancelled: true, over: false })).toEqual({ tone: 'closed', title: 'Cancelled' });
      expect(standingHeadline({ status, rank: null }, { cancelled: true, over: true }).tone).toBe('closed');
    }
  });

  it('keeps the standing an event that is over ended with, and closes it for the unplaced', () => {
    expect(standingHeadline({ status: 'ATTENDING', rank: null }, { cancelled: false, over: true })).toEqual({ tone: 'in', title: "You're in" });
    expect(standingHeadline({ status: null, rank: null }, { cancelled: false, over: true }).tone).toBe('closed');
  });
});
