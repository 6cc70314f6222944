import { describe, expect, it } from 'vitest';
import { makeExternalRoster, makeSeasonDetail } from '../testing';
import { gameCountsText, groupRosters, lastFailure, openClaim, possessive, syncState } from './sync';

const ok = { ok: true, finishedAt: '2026-11-24T14:00:00Z', games: { created: 1, updated: 0, unchanged: 0, removed: 0 }, error: null };
const failed = { ok: false, finishedAt: '2026-11-24T15:00:00Z', games: { created: 0, updated: 0, unchanged: 0, removed: 0 }, error: { code: 'too_large', message: 'over 5 MB' } };

describe('syncState', () => {
  it('is off without a timer or a sync', () => {
    expect(syncState(makeSeasonDetail())).toEqual({ kind: 'off' });
  });
  it('is pending on a timer before the first success, also after a failed first run', () => {
    expect(syncState(makeSeasonDetail({ syncEnabled: true, nextSyncAt: '2026-11-24T19:00:00Z', lastSync: failed }))).toEqual({ kind: 'pending', next: '2026-11-24T19:00:00Z' });
  });
  it('says when the last success was, not the last failure', () => {
    expect(syncState(makeSeasonDetail({ syncEnabled: true, lastSyncAt: '2026-11-24T14:00:00Z', nextSyncAt: '2026-11-24T19:00:00Z', lastSync: failed }))).toEqual({ kind: 'synced', lastAt: '2026-11-24T14:00:00Z', next: '2026-11-24T19:00:00Z' });
    expect(syncState(makeSeasonDetail({ lastSync: ok }))).toEqual({ kind: 'synced', lastAt: '2026-11-24T14:00:00Z', next: null });
  });
  it('has no next sync when sync is off, whatever nextSyncAt says', () => {
    expect(syncState(makeSeasonDetail({ lastSyncAt: '2026-11-24T14:00:00Z', nextSyncAt: '2026-11-24T19:00:00Z' }))).toMatchObject({ next: null });
  });
});

describe('lastFailure', () => {
  it('is the newest run’s reason when it failed', () => {
    expect(lastFailure(failed)).toEqual({ code: 'too_large', message: 'over 5 MB', at: '2026-11-24T15:00:00Z' });
    expect(lastFailure(ok)).toBeNull();
    expect(lastFailure(null)).toBeNull();
  });
});

describe('groupRosters', () => {
  it('sorts by division then name, and queues open claims', () => {
    const claim = { teamId: 't-o', teamName: 'Ice Owls', claimedBy: 'u-1', claimedAt: '2026-11-24T14:00:00Z' };
    const rosters = [
      makeExternalRoster({ id: 'a', name: 'Wolverines', originalDivision: 'Adult D', claim }),
      makeExternalRoster({ id: 'b', name: 'Blue Liners', originalDivision: 'Adult C1', isMatched: true, teamId: 't-b' }),
      makeExternalRoster({ id: 'c', name: 'Polar Bears', originalDivision: 'Adult D' }),
      // Matched to the claimed team already: nothing left to decide.
      makeExternalRoster({ id: 'd', name: 'Top Shelf', originalDivision: 'Adult C1', isMatched: true, teamId: 't-o', claim }),
    ];
    const g = groupRosters(rosters);
    expect(g.unmatched.map((r) => r.name)).toEqual(['Polar Bears', 'Wolverines']);
    expect(g.matched.map((r) => r.name)).toEqual(['Blue Liners', 'Top Shelf']);
    expect(g.claims.map((r) => r.id)).toEqual(['a']);
    expect(openClaim(rosters[3]!)).toBeNull();
  });
});

describe('gameCountsText', () => {
  it('names what changed and nothing else', () => {
    expect(gameCountsText({ created: 40, updated: 0, unchanged: 0, removed: 0 })).toBe('40 new');
    expect(gameCountsText({ created: 0, updated: 2, unchanged: 38, removed: 1 })).toBe('2 updated · 1 removed');
    expect(gameCountsText({ created: 0, updated: 0, unchanged: 40, removed: 0 })).toBe('nothing changed');
  });
});

describe('possessive', () => {
  it('adds an apostrophe after a plural-looking name, ’s otherwise', () => {
    expect(possessive('Ice Owls')).toBe('Ice Owls’');
    expect(possessive('Top Shelf')).toBe('Top Shelf’s');
  });
});
