import { describe, expect, it } from 'vitest';
import { boxScore, namedInLog } from './box-score';
import { logEntry, makeGame } from './test-fixtures';

const game = makeGame({
  log: [
    logEntry(1, { type: 'START' }),
    logEntry(2, { rosterId: 'r-home', playerId: 'h1', assistIds: ['h2', 'h3'] }),
    logEntry(4, { rosterId: 'r-home', playerId: 'h2', assistIds: ['h1'] }),
    logEntry(5, { type: 'PENALTY', rosterId: 'r-home', playerId: 'h3', minutes: 2 }),
    logEntry(6, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a1', minutes: 5 }),
  ],
});

describe('boxScore', () => {
  it('counts goals, assists and penalty minutes of dressed players only, in roster order', () => {
    const lines = boxScore(game, game.home).map((l) => [l.player.userId, l.goals, l.assists, l.penaltyMinutes]);
    expect(lines).toEqual([
      ['h1', 1, 1, 0],
      ['h2', 1, 1, 0],
      ['h3', 0, 1, 2],
    ]);
    expect(boxScore(game, game.away).map((l) => [l.player.userId, l.penaltyMinutes])).toEqual([
      ['a1', 5],
      ['a2', 0],
    ]);
  });
});

describe('namedInLog', () => {
  it('lists the players of one side the scoresheet names', () => {
    expect([...namedInLog(game, 'r-home')].sort()).toEqual(['h1', 'h2', 'h3']);
    expect([...namedInLog(game, 'r-away')]).toEqual(['a1']);
  });
});
