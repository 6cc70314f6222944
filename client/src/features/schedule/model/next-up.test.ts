import { describe, expect, it } from 'vitest';
import type { ScheduleItem } from '../../../lib/api-types';
import { selectNextUp, withLiveScore, worthWatching } from './next-up';

const now = new Date('2026-11-24T18:00:00Z');
const at = (hours: number) => new Date(now.getTime() + hours * 3600_000).toISOString();

type Row = Pick<ScheduleItem, 'status' | 'endsAt' | 'myState'> & { id: string };
const row = (id: string, over: Partial<Row> = {}): Row => ({ id, status: 'SCHEDULED', endsAt: at(24), myState: 'NOT_ANSWERED', ...over });
const ids = (rows: Row[]) => rows.map((r) => r.id);

describe('selectNextUp', () => {
  it("drops today's finished games and whatever has ended, and keeps a live game running late", () => {
    const rows = [
      row('final', { status: 'FINAL', endsAt: at(1) }),
      row('ended', { endsAt: at(-1) }),
      row('late', { status: 'LIVE', endsAt: at(-0.2) }),
      row('tonight'),
    ];
    expect(ids(selectNextUp(rows, now))).toEqual(['late', 'tonight']);
  });

  it('drops what I declined', () => {
    expect(ids(selectNextUp([row('a', { myState: 'DECLINED' }), row('b')], now))).toEqual(['b']);
  });

  it('caps the list at six but never cuts my own places (a waitlisted pickup)', () => {
    const rows = [...Array.from({ length: 7 }, (_, i) => row(`game${i}`, { myState: 'NOT_ANSWERED' })), row('pickup', { myState: 'WAITLISTED' }), row('skate', { myState: 'ATTENDING' })];
    const shown = ids(selectNextUp(rows, now));
    expect(shown).toEqual(['game0', 'game1', 'game2', 'game3', 'pickup', 'skate']);
  });

  it('shows all of my own places even beyond the cap, in schedule order', () => {
    const rows = [row('other'), ...Array.from({ length: 7 }, (_, i) => row(`mine${i}`, { myState: i % 2 ? 'WAITLISTED' : 'ATTENDING' }))];
    expect(ids(selectNextUp(rows, now))).toEqual(['mine0', 'mine1', 'mine2', 'mine3', 'mine4', 'mine5', 'mine6']);
  });
});

describe('live scores', () => {
  const game = { kind: 'GAME', id: 'g1', status: 'SCHEDULED', startsAt: at(1), homeScore: null, awayScore: null } as unknown as ScheduleItem;

  it('merges the topic state over a game row only', () => {
    expect(withLiveScore(game, { status: 'LIVE', homeScore: 2, awayScore: 1 })).toMatchObject({ status: 'LIVE', homeScore: 2, awayScore: 1 });
    const event = { ...game, kind: 'EVENT' } as ScheduleItem;
    expect(withLiveScore(event, { status: 'LIVE', homeScore: 2, awayScore: 1 })).toBe(event);
  });

  it('watches games under way or starting within hours, not events or far-off games', () => {
    expect(worthWatching(game, now)).toBe(true);
    expect(worthWatching({ ...game, startsAt: at(48) }, now)).toBe(false);
    expect(worthWatching({ ...game, status: 'LIVE', startsAt: at(-1) }, now)).toBe(true);
    expect(worthWatching({ ...game, kind: 'EVENT' }, now)).toBe(false);
  });
});
