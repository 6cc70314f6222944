import { describe, expect, it } from 'vitest';
import { entryGameMs, formatGaa, formatSavePct, formatToi, goalieLines, periodSpan } from './goalie-lines';
import { logEntry, makeGame, player } from './test-fixtures';

const SETTINGS = { periodMinutes: 15, overtimeMinutes: 5, clockMode: 'STOP' as const };
const G1 = { ...player('hg', 'Gil Gray', 30), position: 'GOALIE' as const };
const G2 = { ...player('hg2', 'Hal Hart', 1), position: 'GOALIE' as const };

const base = makeGame();
const game = makeGame({
  settings: SETTINGS,
  home: { ...base.home, players: [...base.home.players, G1, G2] },
  log: [
    logEntry(1, { type: 'START' }),
    logEntry(2, { type: 'SHOT', rosterId: 'r-away', period: '1', clockMs: 800_000 }),
    logEntry(3, { type: 'GOAL', rosterId: 'r-away', playerId: 'a1', period: '1', clockMs: 600_000 }),
    logEntry(4, { type: 'SHOT', rosterId: 'r-home', period: '1', clockMs: 500_000 }),
    // 2nd period, 10:00 left: game time 15:00 + 5:00 = 20:00.
    logEntry(5, { type: 'GOALIE', rosterId: 'r-home', playerId: 'hg2', period: '2', clockMs: 600_000 }),
    logEntry(6, { type: 'SHOT', rosterId: 'r-away', period: '2', clockMs: 300_000 }),
    logEntry(7, { type: 'GOALIE', rosterId: 'r-home', playerId: null, period: '3', clockMs: 60_000 }),
    logEntry(8, { type: 'GOAL', rosterId: 'r-away', playerId: 'a2', period: '3', clockMs: 30_000, emptyNet: true }),
  ],
});

describe('periodSpan and entryGameMs', () => {
  it('counts periods at their full length', () => {
    expect(periodSpan('3', SETTINGS)).toEqual({ offsetMs: 1_800_000, lengthMs: 900_000 });
    expect(periodSpan('OT', SETTINGS)).toEqual({ offsetMs: 2_700_000, lengthMs: 300_000 });
    expect(entryGameMs({ period: '2', clockMs: 600_000 }, SETTINGS)).toBe(1_200_000);
    expect(entryGameMs({ period: '2', clockMs: null }, SETTINGS)).toBeNull();
  });
});

describe('goalieLines', () => {
  it('charges shots and goals to whoever was in net, never to an empty net, with time in net and GAA', () => {
    // Game over at the end of the 3rd: 45:00 of game time.
    const [starter, relief] = goalieLines(game, 'home', 2_700_000);
    expect(starter).toMatchObject({ player: G1, shotsAgainst: 2, goalsAgainst: 1, saves: 1, ms: 1_200_000 });
    expect(starter?.savePct).toBe(0.5);
    expect(starter?.gaa).toBe(3);
    // In from 20:00 to the pull at 44:00; the empty-net goal is nobody's.
    expect(relief).toMatchObject({ player: G2, shotsAgainst: 1, goalsAgainst: 0, saves: 1, ms: 1_440_000, gaa: 0 });
    expect(goalieLines(game, 'away', 2_700_000)).toEqual([]);
  });

  it('has nobody in net before the puck drops', () => {
    expect(goalieLines({ ...game, log: [] }, 'home', 0)).toEqual([]);
  });
});

describe('formats', () => {
  it('prints save percentage, GAA and time in net as sheets do', () => {
    expect([formatSavePct(11 / 12), formatSavePct(1), formatSavePct(0), formatSavePct(null)]).toEqual(['.917', '1.000', '.000', '–']);
    expect([formatGaa(2.5), formatGaa(null)]).toEqual(['2.50', '–']);
    expect(formatToi(2_832_000)).toBe('47:12');
  });
});
