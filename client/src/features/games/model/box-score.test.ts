import { describe, expect, it } from 'vitest';
import { boxScore, namedInLog, pimByType } from './box-score';
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

describe('boxScore on game night', () => {
  it('counts power-play and shorthanded goals, and penalty minutes by type per team', () => {
    const night = makeGame({
      log: [
        logEntry(1, { type: 'START' }),
        logEntry(2, { rosterId: 'r-home', playerId: 'h1', strength: 'PP' }),
        logEntry(3, { rosterId: 'r-home', playerId: 'h1', strength: 'SH' }),
        logEntry(4, { rosterId: 'r-home', playerId: 'h2', strength: 'EV' }),
        logEntry(5, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a1', minutes: 2, penalty: 'MINOR' }),
        logEntry(6, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a1', minutes: 4, penalty: 'DOUBLE_MINOR' }),
        logEntry(7, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a2', minutes: 5, penalty: 'MAJOR' }),
        logEntry(8, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a2', minutes: 10, penalty: 'GAME_MISCONDUCT' }),
        logEntry(9, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a2', minutes: 3 }),
      ],
    });
    expect(boxScore(night, night.home).map((l) => [l.player.userId, l.goals, l.ppGoals, l.shGoals])).toEqual([
      ['h1', 2, 1, 1],
      ['h2', 1, 0, 0],
      ['h3', 0, 0, 0],
    ]);
    expect(pimByType(night, 'r-away')).toEqual({ minor: 6, major: 5, misconduct: 10, other: 3 });
    expect(pimByType(night, 'r-home')).toEqual({ minor: 0, major: 0, misconduct: 0, other: 0 });
  });
});
