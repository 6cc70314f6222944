import { describe, expect, it } from 'vitest';
import type { GameDocument, GameLogEntry, PenaltyKind, RunningPenalty } from './api-types';
import { penaltyClocks, strengthLine, strengthOf, shorthands } from './game-strength';

const pen = (seq: number, rosterId: string, playerId: string, penalty: PenaltyKind, minutes: number): GameLogEntry => ({
  seq,
  type: 'PENALTY',
  period: '1',
  rosterId,
  playerId,
  assistIds: [],
  minutes,
  penalty,
});

const game = (log: GameLogEntry[], penalties: RunningPenalty[]): GameDocument => ({
  id: 'g',
  status: 'LIVE',
  period: '1',
  homeScore: 0,
  awayScore: 0,
  homeRosterId: 'H',
  awayRosterId: 'A',
  version: 9,
  log,
  penalties,
  home: { rosterId: 'H', name: 'Blades', players: [{ userId: 'h1', displayName: 'Alice Ames', jerseyNumber: 9, position: null, dressed: true }, { userId: 'h2', displayName: 'Bruno Berg', jerseyNumber: 12, position: null, dressed: true }] },
  away: { rosterId: 'A', name: 'Ice Hawks', players: [{ userId: 'a1', displayName: 'Mia Moss', jerseyNumber: 4, position: null, dressed: true }] },
});

const NAMES = { home: 'Blades', away: 'Ice Hawks' };

describe('penaltyClocks', () => {
  it('counts a served penalty down from its end in game time, with the player from the held lists', () => {
    const g = game([pen(3, 'H', 'h2', 'MINOR', 2)], [{ seq: 3, startMs: 100_000, endMs: 220_000 }]);
    const [c] = penaltyClocks(g, 137_000);
    expect(c).toMatchObject({ seq: 3, side: 'home', player: '#12 Bruno Berg', number: '12', kind: 'MINOR', serving: true, leftMs: 83_000, shorthands: true });
  });

  it('shows a waiting penalty at its whole length, and leaves out one that has run out', () => {
    const g = game(
      [pen(3, 'H', 'h1', 'MINOR', 2), pen(4, 'H', 'h2', 'MINOR', 2), pen(5, 'A', 'a1', 'MAJOR', 5)],
      [
        { seq: 3, startMs: 0, endMs: 120_000 },
        { seq: 4, startMs: null, endMs: null },
        { seq: 5, startMs: 200_000, endMs: 500_000 },
      ],
    );
    const at = penaltyClocks(g, 150_000);
    expect(at.map((c) => [c.seq, c.serving, c.leftMs])).toEqual([
      [4, false, 120_000],
      [5, false, 300_000],
    ]);
    expect(penaltyClocks(g, 60_000).map((c) => c.seq)).toEqual([3, 4, 5]);
  });

  it('skips listed seqs whose entry it does not hold (a snapshot is on its way)', () => {
    expect(penaltyClocks(game([], [{ seq: 8, startMs: 0, endMs: 1 }]), 0)).toEqual([]);
  });
});

describe('strengthOf', () => {
  type Case = [string, Array<[string, PenaltyKind]>, string, 'home' | 'away' | null, string];
  // What is served now → the label, the power play, and the console's line.
  const cases: Case[] = [
    ['nobody in the box', [], '5v5', null, 'Even strength 5v5'],
    ['a home minor', [['H', 'MINOR']], '5v4', 'away', 'Ice Hawks power play 5v4'],
    ['two away minors', [['A', 'MINOR'], ['A', 'DOUBLE_MINOR']], '5v3', 'home', 'Blades power play 5v3'],
    ['one each', [['H', 'MINOR'], ['A', 'MINOR']], '4v4', null, '4 on 4'],
    ['a major and a minor against one side', [['H', 'MAJOR'], ['H', 'MINOR'], ['A', 'MINOR']], '4v3', 'away', 'Ice Hawks power play 4v3'],
    ['three against one side (never below three)', [['A', 'MINOR'], ['A', 'MINOR'], ['A', 'MAJOR']], '5v3', 'home', 'Blades power play 5v3'],
    ['a misconduct', [['H', 'MISCONDUCT']], '5v5', null, 'Even strength 5v5'],
    ['a game misconduct and OTHER minutes', [['A', 'GAME_MISCONDUCT'], ['H', 'OTHER']], '5v5', null, 'Even strength 5v5'],
    ['a minor with a misconduct on the same side', [['H', 'MINOR'], ['H', 'MISCONDUCT']], '5v4', 'away', 'Ice Hawks power play 5v4'],
  ];
  it.each(cases)('%s: %s', (_name, served, label, pp, line) => {
    const log = served.map(([side, kind], i) => pen(i + 1, side, side === 'H' ? 'h1' : 'a1', kind, 2));
    const g = game(
      log,
      log.map((e) => ({ seq: e.seq, startMs: 0, endMs: 120_000 + e.seq * 1000 })),
    );
    const s = strengthOf(penaltyClocks(g, 30_000));
    expect(s.label).toBe(label);
    expect(s.powerPlay).toBe(pp);
    expect(strengthLine(s, NAMES)).toBe(line);
  });

  it('says when the strength next changes: the first shorthanding penalty to end', () => {
    const g = game(
      [pen(1, 'H', 'h1', 'MINOR', 2), pen(2, 'H', 'h2', 'MAJOR', 5), pen(3, 'A', 'a1', 'MISCONDUCT', 10)],
      [
        { seq: 1, startMs: 10_000, endMs: 130_000 },
        { seq: 2, startMs: 20_000, endMs: 320_000 },
        { seq: 3, startMs: 0, endMs: 30_000 },
      ],
    );
    expect(strengthOf(penaltyClocks(g, 25_000)).nextChangeMs).toBe(105_000);
    expect(strengthOf(penaltyClocks(g, 5_000)).nextChangeMs).toBeNull();
  });

  it('knows which kinds shorthand', () => {
    expect((['MINOR', 'DOUBLE_MINOR', 'MAJOR', 'MISCONDUCT', 'GAME_MISCONDUCT', 'OTHER'] as const).map(shorthands)).toEqual([true, true, true, false, false, false]);
  });
});
