import { describe, expect, it } from 'vitest';
import type { GameDocument, GameLogEntry, GamePlayer, GameUpdate } from './api-types';
import { mergeGameUpdate, mergeLog, mergeShots, shotSlot } from './merge-game-update';
import type { MergeOutcome } from './ws';
import { gameUpdateOf } from '../testing/game-frames';

const entry = (seq: number, over: Partial<GameLogEntry> = {}): GameLogEntry => ({
  seq,
  type: 'PENALTY',
  period: '1',
  rosterId: 'H',
  playerId: 'h1',
  assistIds: [],
  minutes: 2,
  ...over,
});

const entries = (...seqs: number[]) => seqs.map((s) => entry(s));
const range = (from: number, to: number) => entries(...Array.from({ length: to - from + 1 }, (_, i) => from + i));
const seqs = (log: readonly GameLogEntry[]) => log.map((e) => e.seq);

const HOME_PLAYERS: GamePlayer[] = [{ userId: 'h1', displayName: 'Alice Ames', jerseyNumber: 9, position: null, dressed: true }];
const AWAY_PLAYERS: GamePlayer[] = [{ userId: 'a1', displayName: 'Mia Moss', jerseyNumber: 4, position: null, dressed: true }];

const game = (over: Partial<GameDocument> = {}): GameDocument => ({
  id: 'g',
  status: 'LIVE',
  period: '1',
  homeScore: 0,
  awayScore: 0,
  homeRosterId: 'H',
  awayRosterId: 'A',
  version: 1,
  log: [],
  home: { rosterId: 'H', name: 'Blades', players: HOME_PLAYERS },
  away: { rosterId: 'A', name: 'Ice Hawks', players: AWAY_PLAYERS },
  ...over,
});

/** The merged state, failing the test on a gap. */
function merged(outcome: MergeOutcome<GameDocument>): GameDocument {
  if (outcome.kind !== 'merged') throw new Error('expected the update to merge, got a gap');
  return outcome.data;
}

const CLOCK = { phase: 'PLAY', running: true, remainingMs: 734_120, at: 1_764_424_800_123, periodMs: 1_200_000, offsetMs: 1_200_000 } as const;

describe('mergeGameUpdate', () => {
  it('applies an update that continues from the held version: scoreboard, clock, new entries', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const next = game({ version: 13, homeScore: 1, period: '2', clock: CLOCK, log: range(1, 13) });
    const update = gameUpdateOf(next, held);
    expect(update).toMatchObject({ since: 12, version: 13, undone: [] });
    expect(seqs(update.entries)).toEqual([13]);

    const out = merged(mergeGameUpdate(held, update));
    expect(out).toEqual(next);
  });

  it('applies an update that continues from an older version than held: entries by seq, so repeats are harmless', () => {
    const v11 = game({ version: 11, log: range(1, 11) });
    const v12 = game({ version: 12, log: range(1, 12) });
    const v13 = game({ version: 13, log: range(1, 13) });
    // A slow reader's queue merged 11→12 and 12→13 into one update since 11; we already hold 12.
    const coalesced: GameUpdate = { ...gameUpdateOf(v13, v12), since: 11, entries: [entry(12), entry(13)] };
    expect(merged(mergeGameUpdate(v12, coalesced)).log).toEqual(v13.log);
    expect(merged(mergeGameUpdate(v11, coalesced)).log).toEqual(v13.log);
  });

  it('reports a gap when the update continues from a version after the one held', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const v14 = game({ version: 14, log: range(1, 14) });
    const v15 = game({ version: 15, log: range(1, 15) });
    expect(mergeGameUpdate(held, gameUpdateOf(v15, v14))).toEqual({ kind: 'gap' });
  });

  it('takes back undone seqs, down to an empty log', () => {
    const held = game({ version: 12, homeScore: 3, log: range(1, 12) });
    const undone = game({ version: 13, homeScore: 2, log: range(1, 11) });
    const update = gameUpdateOf(undone, held);
    expect(update.undone).toEqual([12]);
    const out = merged(mergeGameUpdate(held, update));
    expect(seqs(out.log)).toEqual(seqs(range(1, 11)));
    expect(out.homeScore).toBe(2);

    const cleared = merged(mergeGameUpdate(out, { ...gameUpdateOf(out, out), since: 13, version: 40, status: 'SCHEDULED', undone: seqs(range(1, 11)) }));
    expect(cleared.log).toEqual([]);
    expect(cleared.status).toBe('SCHEDULED');
  });

  it('replaces penalties and goalies only when the update has them', () => {
    const held = game({ version: 3, log: range(1, 3), penalties: [{ seq: 3, startMs: 60_000, endMs: 180_000 }], goalies: { home: 'h1', away: 'a1' } });
    const shot = game({ ...held, version: 4, log: [...range(1, 3), entry(4, { type: 'SHOT', rosterId: 'A', playerId: null })] });
    const quiet = gameUpdateOf(shot, held);
    expect(quiet).not.toHaveProperty('penalties');
    expect(quiet).not.toHaveProperty('goalies');
    const out = merged(mergeGameUpdate(held, quiet));
    expect(out.penalties).toEqual(held.penalties);
    expect(out.goalies).toEqual(held.goalies);

    const pulled = merged(mergeGameUpdate(out, { ...gameUpdateOf(out, out), since: 4, version: 5, penalties: [], goalies: { home: null, away: 'a1' } }));
    expect(pulled.penalties).toEqual([]);
    expect(pulled.goalies).toEqual({ home: null, away: 'a1' });
  });

  it('keeps the snapshot’s player lists and names (updates carry neither)', () => {
    const held = game({ version: 4, log: range(1, 4) });
    const out = merged(mergeGameUpdate(held, gameUpdateOf(game({ version: 5, log: range(1, 5) }), held)));
    expect(out.home).toBe(held.home);
    expect(out.away.players).toBe(AWAY_PLAYERS);
  });

  it('is idempotent: a repeated or older update changes nothing', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const update = gameUpdateOf(game({ version: 13, awayScore: 1, log: range(1, 13) }), held);
    const once = merged(mergeGameUpdate(held, update));
    expect(mergeGameUpdate(once, update)).toEqual({ kind: 'merged', data: once });
  });

  it('reports a gap when an entry names a player or roster it does not hold', () => {
    const held = game({ version: 3, log: range(1, 3) });
    const stranger = { ...gameUpdateOf(held, held), since: 3, version: 4, entries: [entry(4, { type: 'GOAL', rosterId: 'H', playerId: 'h9' })] };
    expect(mergeGameUpdate(held, stranger)).toEqual({ kind: 'gap' });
    const assist = { ...stranger, entries: [entry(4, { type: 'GOAL', rosterId: 'H', playerId: 'h1', assistIds: ['a1'] })] };
    expect(mergeGameUpdate(held, assist)).toEqual({ kind: 'gap' });
    const roster = { ...stranger, entries: [entry(4, { type: 'SHOT', rosterId: 'X', playerId: null })] };
    expect(mergeGameUpdate(held, roster)).toEqual({ kind: 'gap' });
    const pulled = { ...stranger, entries: [entry(4, { type: 'GOALIE', rosterId: 'A', playerId: null })] };
    expect(merged(mergeGameUpdate(held, pulled)).log.at(-1)?.type).toBe('GOALIE');
  });

  it('reports a gap when the players digest moved (a lineup changed), and merges while it holds', () => {
    const held = game({ version: 3, log: range(1, 3), playersDigest: 'aaaa' });
    const same = gameUpdateOf(game({ version: 4, log: range(1, 4), playersDigest: 'aaaa' }), held);
    expect(merged(mergeGameUpdate(held, same)).home.players).toEqual(HOME_PLAYERS);
    const moved = gameUpdateOf(game({ version: 4, log: range(1, 3), playersDigest: 'bbbb' }), held);
    expect(mergeGameUpdate(held, moved)).toEqual({ kind: 'gap' });
  });

  it('takes an update in the old whole shape as the state, and a shapeless one as a gap', () => {
    const held = game({ version: 3, log: range(1, 3) });
    const whole = game({ version: 4, log: range(1, 4) });
    expect(mergeGameUpdate(held, whole)).toEqual({ kind: 'merged', data: whole });
    expect(mergeGameUpdate(held, { version: 5 } as unknown as GameUpdate)).toEqual({ kind: 'gap' });
  });
});

describe('mergeLog', () => {
  it('merges by seq, replaces repeats, drops undone, keeps seq order', () => {
    const log = entries(1, 2, 5);
    const out = mergeLog(log, [entry(7), entry(5, { minutes: 5 }), entry(6)], [2]);
    expect(seqs(out)).toEqual([1, 5, 6, 7]);
    expect(out[1]?.minutes).toBe(5);
  });
});

describe('mergeShots', () => {
  const shot = (seq: number, rosterId: string, period: GameLogEntry['period']) => entry(seq, { type: 'SHOT', rosterId, playerId: null, period });

  it('counts added and undone shots and goals in their own periods', () => {
    const held = game({ version: 5, period: '2', log: [shot(1, 'H', '1'), shot(2, 'H', '2')], shots: { home: [1, 1, 0, 0], away: [0, 0, 0, 0] } });
    const update: GameUpdate = {
      since: 5,
      version: 6,
      status: 'LIVE',
      period: '2',
      homeScore: 0,
      awayScore: 1,
      homeShots: 1,
      awayShots: 1,
      entries: [entry(3, { type: 'GOAL', rosterId: 'A', playerId: 'a1', period: '2' })],
      undone: [1],
    };
    expect(mergeShots(held, update)).toEqual({ home: [0, 1, 0, 0], away: [0, 1, 0, 0] });
  });

  it('puts what the totals still disagree by on the current period, and takes a surplus off the latest', () => {
    const held = game({ version: 5, period: '3', shots: { home: [4, 2, 1, 0], away: [3, 0, 0, 0] } });
    const update: GameUpdate = { since: 5, version: 6, status: 'LIVE', period: '3', homeScore: 0, awayScore: 0, homeShots: 9, awayShots: 1, entries: [], undone: [] };
    expect(mergeShots(held, update)).toEqual({ home: [4, 2, 3, 0], away: [1, 0, 0, 0] });
    // A game held without shots (a snapshot from before them) starts from zeros.
    expect(mergeShots(game(), { ...update, period: 'OT' })).toEqual({ home: [0, 0, 0, 9], away: [0, 0, 0, 1] });
  });

  it('maps periods to slots, the shootout to none', () => {
    expect(['1', '2', '3', 'OT', 'SO', null].map((p) => shotSlot(p as GameLogEntry['period']))).toEqual([0, 1, 2, 3, null, null]);
  });
});

// ── A game played against a model of the server ───────────────────────────

/** A deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The server's log as actors/src/game keeps it: every action takes the next
 * seq; UNDO takes one too and removes the last entry that stands. Shots
 * (SHOT and GOAL entries) are counted per period.
 */
function serverGame(random: () => number) {
  let nextSeq = 1;
  let version = 1;
  let log: GameLogEntry[] = [];
  const periods = ['1', '2', '3'] as const;
  const state = (): GameDocument => {
    const shots = { home: [0, 0, 0, 0], away: [0, 0, 0, 0] };
    for (const e of log) {
      const slot = shotSlot(e.period);
      if (slot !== null && (e.type === 'SHOT' || e.type === 'GOAL')) (e.rosterId === 'H' ? shots.home : shots.away)[slot]! += 1;
    }
    const period = periods[Math.min(2, Math.floor(version / 30))] ?? '3';
    return game({ version, period, log, homeScore: log.filter((e) => e.type === 'GOAL' && e.rosterId === 'H').length, shots });
  };
  return {
    state,
    act(): void {
      const seq = nextSeq++;
      if (log.length > 0 && random() < 0.3) log = log.slice(0, -1);
      else {
        const side = random() < 0.5 ? 'H' : 'A';
        const type = random() < 0.6 ? 'SHOT' : 'GOAL';
        log = [...log, entry(seq, { type, rosterId: side, playerId: type === 'GOAL' ? (side === 'H' ? 'h1' : 'a1') : null, period: state().period })];
      }
      version += 1;
    },
  };
}

/** Two queued updates of one game as the server's outbox merges them: fields of the newer, entries and undone of both, since of the older. */
function coalesce(older: GameUpdate, newer: GameUpdate): GameUpdate {
  return { ...newer, since: older.since, entries: [...older.entries, ...newer.entries], undone: [...(older.undone ?? []), ...(newer.undone ?? [])] };
}

describe('mergeGameUpdate against a model of the server', () => {
  it('shows the server’s log and shot counts after any coalescing; a frame really lost is a gap, never a wrong log', () => {
    for (let seed = 1; seed <= 120; seed++) {
      const random = rng(seed);
      const server = serverGame(random);
      const lossRate = seed % 3 === 0 ? 0.1 : 0;
      let held = server.state();
      let queued: GameUpdate | null = null;
      let gaps = 0;
      for (let step = 0; step < 90; step++) {
        const before = server.state();
        server.act();
        const update = gameUpdateOf(server.state(), before);
        queued = queued ? coalesce(queued, update) : update;
        if (random() < 0.5) continue; // still in a slow reader's queue
        const frame = queued;
        queued = null;
        if (random() < lossRate) continue; // the frame never arrived (a reconnect between)
        const outcome = mergeGameUpdate(held, frame);
        const truth = server.state();
        if (outcome.kind === 'gap') {
          gaps += 1;
          held = truth; // the snapshot that answers the re-subscribe
        } else {
          expect(seqs(outcome.data.log), `seed ${seed}, step ${step}`).toEqual(seqs(truth.log));
          expect(outcome.data.shots, `seed ${seed}, step ${step}`).toEqual(truth.shots);
          held = outcome.data;
        }
      }
      if (lossRate === 0) expect(gaps, `seed ${seed}`).toBe(0);
    }
    // Thousands of merges: room for a busy machine.
  }, 30_000);
});
