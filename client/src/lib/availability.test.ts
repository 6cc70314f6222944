import { describe, expect, it } from 'vitest';
import type { AvailabilityBoard, GameAvailability } from './api-types';
import { answerPath, mergeAvailabilityUpdate, withGame } from './availability';

const counts = { skaters: { in: 0, out: 0, noAnswer: 0 }, defence: { in: 0, out: 0, noAnswer: 0 }, goalies: { in: 0, out: 0, noAnswer: 0 }, subs: { in: 0, out: 0, noAnswer: 0 } };

function game(gameId: string, startsAt: string, over: Partial<GameAvailability> = {}): GameAvailability {
  return {
    gameId,
    kind: 'GAME',
    title: `Game ${gameId}`,
    startsAt,
    timeZone: 'America/Toronto',
    place: null,
    side: 'HOME',
    opponent: null,
    locksAt: null,
    locked: false,
    counts,
    short: { skaters: 0, goalies: 0 },
    nudgedAt: null,
    players: [],
    ...over,
  };
}

const board: AvailabilityBoard = {
  rosterId: 'r-1',
  rules: { lockMinutes: null, minSkaters: null, minGoalies: null },
  games: [game('g1', '2026-11-26T02:30:00Z'), game('g3', '2026-12-03T02:30:00Z')],
};

describe('the availability topic', () => {
  it('replaces the one game an update carries, and leaves the others as they were', () => {
    const nudged = game('g1', '2026-11-26T02:30:00Z', { nudgedAt: '2026-11-24T18:00:00Z' });
    const out = mergeAvailabilityUpdate(board, { game: nudged });
    expect(out.kind).toBe('merged');
    if (out.kind !== 'merged') return;
    expect(out.data.games.map((g) => g.gameId)).toEqual(['g1', 'g3']);
    expect(out.data.games[0]).toBe(nudged);
    expect(out.data.games[1]).toBe(board.games[1]);
    expect(out.data.rosterId).toBe('r-1');
  });

  it('puts a game it did not hold in start order', () => {
    expect(withGame(board.games, game('g2', '2026-11-28T02:30:00Z')).map((g) => g.gameId)).toEqual(['g1', 'g2', 'g3']);
  });

  it('takes a rules change as the whole board, keeping the roster id', () => {
    const rules = { lockMinutes: 120, minSkaters: 10, minGoalies: 1 };
    const out = mergeAvailabilityUpdate(board, { rules, games: [game('g3', '2026-12-03T02:30:00Z', { locksAt: '2026-12-03T00:30:00Z' })] });
    expect(out).toEqual({ kind: 'merged', data: { rosterId: 'r-1', rules, games: [expect.objectContaining({ gameId: 'g3', locksAt: '2026-12-03T00:30:00Z' })] } });
  });

  it('calls anything else a gap, so the socket asks for a fresh snapshot', () => {
    expect(mergeAvailabilityUpdate(board, {} as never).kind).toBe('gap');
    expect(mergeAvailabilityUpdate(board, { game: null } as never).kind).toBe('gap');
  });

  it("names a player's answer by roster, game and person", () => {
    expect(answerPath('r-1', 'g 1', 'u-me')).toBe('/rosters/r-1/availability/g%201/players/u-me');
  });
});
