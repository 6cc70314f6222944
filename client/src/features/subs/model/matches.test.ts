import { describe, expect, it } from 'vitest';
import type { MatchesDocument } from '../../../lib/api-types';
import { activeMatches, foldMatchesUpdate, nextExpiry } from './matches';
import { inHours, makeStatus, NOW, spotMatch, statusMatch } from './test-fixtures';

const ids = (doc: MatchesDocument) => doc.items.map((m) => m.id);

describe('foldMatchesUpdate', () => {
  it('upserts a new match in soonest-first order', () => {
    const later = spotMatch({ id: 'e-late', startDate: inHours(5) });
    const sooner = spotMatch({ id: 'e-soon', startDate: inHours(1) });
    let doc = foldMatchesUpdate({ items: [later] }, { op: 'upsert', match: sooner });
    expect(ids(doc)).toEqual(['s-mine:event:e-soon', 's-mine:event:e-late']);
    // Upserting before any snapshot starts from an empty list.
    doc = foldMatchesUpdate(null, { op: 'upsert', match: later });
    expect(ids(doc)).toEqual(['s-mine:event:e-late']);
  });

  it('replaces a match by id (an event whose open places changed), and is idempotent', () => {
    const before = spotMatch({ open: { skaters: 2, goalies: 1 } });
    const after = spotMatch({ open: { skaters: 1, goalies: 1 } });
    const once = foldMatchesUpdate({ items: [before] }, { op: 'upsert', match: after });
    const twice = foldMatchesUpdate(once, { op: 'upsert', match: after });
    expect(once.items).toHaveLength(1);
    expect(once.items[0]?.event?.open.skaters).toBe(1);
    expect(twice).toEqual(once);
  });

  it('drops every match resting on a status, whether it is mine or theirs', () => {
    const spot = spotMatch({ id: 'e-1' });
    const withTeam = statusMatch({ id: 's-team' });
    const otherMine = statusMatch({ id: 's-other' }, { id: 's-looking', type: 'LOOKING_FOR_TEAM' });
    const doc = { items: [spot, withTeam, otherMine] };
    expect(ids(foldMatchesUpdate(doc, { op: 'drop', statusId: 's-mine' }))).toEqual(['s-looking:status:s-other']);
    expect(ids(foldMatchesUpdate(doc, { op: 'drop', statusId: 's-team' }))).toEqual(['s-mine:event:e-1', 's-looking:status:s-other']);
    // Unknown ids change nothing.
    expect(foldMatchesUpdate(doc, { op: 'drop', statusId: 'nope' }).items).toEqual(doc.items);
  });

  it("takes a dropped call for subs out of an event's asks but keeps the open spot", () => {
    const ask = makeStatus({ id: 's-call', type: 'LOOKING_FOR_SUBS', eventId: 'e-1', message: 'Need a goalie!' });
    const spot = spotMatch({ id: 'e-1', asks: [ask] });
    const doc = foldMatchesUpdate({ items: [spot] }, { op: 'drop', statusId: 's-call' });
    expect(ids(doc)).toEqual(['s-mine:event:e-1']);
    expect(doc.items[0]?.event?.asks).toEqual([]);
  });

  it("drops an event's open-spot match by event id, and only that", () => {
    const spot = spotMatch({ id: 'e-1' });
    const otherSpot = spotMatch({ id: 'e-2' });
    // A team's call tied to the same event is a match with a status: it stays until that status drops.
    const teamCall = { ...statusMatch({ id: 's-team', eventId: 'e-1' }), event: spot.event };
    const doc = foldMatchesUpdate({ items: [spot, otherSpot, teamCall] }, { op: 'drop', eventId: 'e-1' });
    expect(ids(doc).sort()).toEqual(['s-mine:event:e-2', 's-mine:status:s-team']);
  });
});

describe('activeMatches', () => {
  it('hides matches whose status has expired, theirs too, and open spots whose puck has dropped', () => {
    const live = spotMatch({ id: 'e-live' });
    const mineExpired = spotMatch({ id: 'e-x' }, { id: 's-old', expiresAt: inHours(-1) });
    const theirsExpired = statusMatch({ id: 's-gone', expiresAt: inHours(-0.1) });
    const started = spotMatch({ id: 'e-started', startDate: inHours(-0.5) });
    expect(activeMatches([live, mineExpired, theirsExpired, started], NOW).map((m) => m.id)).toEqual([live.id]);
  });

  it('drops a match at the very moment its status runs out', () => {
    const m = spotMatch({}, { expiresAt: new Date(NOW).toISOString() });
    expect(activeMatches([m], NOW - 1)).toHaveLength(1);
    expect(activeMatches([m], NOW)).toHaveLength(0);
  });

  it('knows when to look again', () => {
    const m = spotMatch({ startDate: inHours(3) }, { expiresAt: inHours(6) });
    expect(nextExpiry([m], NOW)).toBe(Date.parse(inHours(3)));
    expect(nextExpiry([], NOW)).toBeNull();
  });
});
