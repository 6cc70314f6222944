import { describe, expect, it } from 'vitest';
import type { GameDocument, GameLogEntry, GamePlayer, GameUpdate } from './api-types';
import { LOG_TAIL_SIZE, mergeGameUpdate, mergeLogTail } from './merge-game-update';
import type { MergeOutcome } from './ws';
import { gameUpdateOf } from '../testing/game-frames';

const entry = (seq: number, over: Partial<GameLogEntry> = {}): GameLogEntry => ({
  seq,
  type: 'PENALTY',
  period: '1',
  rosterId: 'H',
  playerId: 'h1',
  playerName: 'Alice Ames',
  assistIds: [],
  assistNames: [],
  minutes: 2,
  createdAt: '2026-11-20T19:05:00Z',
  ...over,
});

/** Entries with these seqs, in order. */
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

describe('mergeGameUpdate', () => {
  it('merges in-order tails: scoreboard from the update, log with the new entry', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const next = game({ version: 13, homeScore: 1, period: '2', log: range(1, 13) });
    const update = gameUpdateOf(next);
    expect(seqs(update.logTail)).toEqual(seqs(range(4, 13)));

    const out = merged(mergeGameUpdate(held, update));
    expect(seqs(out.log)).toEqual(seqs(range(1, 13)));
    expect(out).toMatchObject({ version: 13, homeScore: 1, period: '2' });
    expect(out).not.toHaveProperty('logTail');
    expect(out).toEqual(next);
  });

  it('takes a tail that follows right after the held log (ten or more new entries, none missed)', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const next = game({ version: 22, log: range(1, 22) });
    expect(merged(mergeGameUpdate(held, gameUpdateOf(next))).log).toEqual(next.log);
  });

  it('drops an undone entry: it is no longer in the tail, so it leaves the merged log', () => {
    const held = game({ version: 12, homeScore: 3, log: range(1, 12) });
    // UNDO of entry 12 is action 13; the log that stands is 1–11.
    const undone = game({ version: 13, homeScore: 2, log: range(1, 11) });
    const out = merged(mergeGameUpdate(held, gameUpdateOf(undone)));
    expect(seqs(out.log)).toEqual(seqs(range(1, 11)));
    expect(out.homeScore).toBe(2);

    // The next action takes seq 14: the gap 12–13 in the seqs is expected, not missing data.
    const after = game({ version: 14, log: [...range(1, 11), entry(14)] });
    expect(seqs(merged(mergeGameUpdate(out, gameUpdateOf(after))).log)).toEqual([...seqs(range(1, 11)), 14]);
  });

  it('drops an undone entry from a short log too, down to an empty one', () => {
    const held = game({ version: 3, log: entries(1, 2, 3) });
    expect(seqs(merged(mergeGameUpdate(held, gameUpdateOf(game({ version: 4, log: entries(1, 2) })))).log)).toEqual([1, 2]);
    // Every entry undone: the tail is empty, and so is the log that stands.
    const cleared = merged(mergeGameUpdate(held, { ...gameUpdateOf(held), version: 9, status: 'SCHEDULED', logTail: [] }));
    expect(cleared.log).toEqual([]);
    expect(cleared.status).toBe('SCHEDULED');
  });

  it('takes a tail shorter than ten at game start as the whole log', () => {
    const scheduled = game({ status: 'SCHEDULED', period: null, version: 1, log: [] });
    const started = game({ version: 2, log: [entry(1, { type: 'START', rosterId: null, playerId: null, playerName: null, minutes: null })] });
    const out = merged(mergeGameUpdate(scheduled, gameUpdateOf(started)));
    expect(out.log).toEqual(started.log);
    expect(out).toMatchObject({ status: 'LIVE', period: '1', version: 2 });

    // A short tail needs nothing from the held log: it is all there is.
    const later = game({ version: 9, log: entries(1, 5, 8) });
    expect(merged(mergeGameUpdate(scheduled, gameUpdateOf(later))).log).toEqual(later.log);
  });

  it('reports a gap when the held log ends before the tail’s first seq − 1', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const far = game({ version: 30, log: range(1, 30) });
    expect(gameUpdateOf(far).logTail[0]?.seq).toBe(21);
    expect(mergeGameUpdate(held, gameUpdateOf(far))).toEqual({ kind: 'gap' });
    // Nothing held yet and a full tail: entries before it are unknown.
    expect(mergeGameUpdate(game({ log: [] }), gameUpdateOf(far))).toEqual({ kind: 'gap' });
  });

  it('reports a gap rather than guess when seqs after the held log were used by entries that did not stand', () => {
    // Held: 1–12, then 13 was scored and taken back by 14 (not seen).
    // Ten more came (15–24), all missed but the last frame. The log would
    // be 1–12 + 15–24, but nothing in the frame says 13 was undone rather
    // than missed: ask for a snapshot.
    const held = game({ version: 12, log: range(1, 12) });
    const update = gameUpdateOf(game({ version: 24, log: [...range(1, 12), ...range(15, 24)] }));
    expect(mergeGameUpdate(held, update)).toEqual({ kind: 'gap' });
  });

  it('reports a gap when the tail starts inside the held log at an entry it does not have', () => {
    // Impossible for a held log that was whole (entries never come back and
    // new ones take higher seqs), so not a state to build on.
    const held = game({ version: 20, log: [...range(1, 5), ...range(8, 20)] });
    const odd: GameUpdate = { ...gameUpdateOf(held), version: 21, logTail: [entry(6), ...range(13, 21)] };
    expect(odd.logTail).toHaveLength(LOG_TAIL_SIZE);
    expect(mergeGameUpdate(held, odd)).toEqual({ kind: 'gap' });
  });

  it('keeps the player lists of the snapshot and takes the names of the update', () => {
    const held = game({ version: 4, log: range(1, 4) });
    const update: GameUpdate = { ...gameUpdateOf(game({ version: 5, log: range(1, 5) })), home: { rosterId: 'H', name: 'Blades II' } };
    expect(update).not.toHaveProperty('home.players');
    const out = merged(mergeGameUpdate(held, update));
    expect(out.home).toEqual({ rosterId: 'H', name: 'Blades II', players: HOME_PLAYERS });
    expect(out.away.players).toBe(AWAY_PLAYERS);
  });

  it('is idempotent: a repeated tail changes nothing', () => {
    const held = game({ version: 12, log: range(1, 12) });
    const update = gameUpdateOf(game({ version: 13, awayScore: 1, log: range(1, 13) }));
    const once = merged(mergeGameUpdate(held, update));
    const twice = merged(mergeGameUpdate(once, update));
    expect(twice).toEqual(once);
    expect(merged(mergeGameUpdate(twice, update))).toEqual(once);
    // An older update than the state held adds nothing either.
    expect(merged(mergeGameUpdate(once, gameUpdateOf(held)))).toBe(once);
  });

  it('reports a gap when a side has another roster, whose players it does not hold', () => {
    const held = game({ version: 3, log: range(1, 3) });
    const update: GameUpdate = { ...gameUpdateOf(game({ version: 4, log: range(1, 3) })), homeRosterId: 'H2', home: { rosterId: 'H2', name: 'Other' } };
    expect(mergeGameUpdate(held, update)).toEqual({ kind: 'gap' });
  });

  it('reports a gap when the players digest moved (a lineup changed), and merges while it holds', () => {
    const held = game({ version: 3, log: range(1, 3), playersDigest: 'aaaa' });
    const same: GameUpdate = gameUpdateOf(game({ version: 4, log: range(1, 4), playersDigest: 'aaaa' }));
    expect(merged(mergeGameUpdate(held, same)).home.players).toEqual(HOME_PLAYERS);
    const moved: GameUpdate = gameUpdateOf(game({ version: 4, log: range(1, 3), playersDigest: 'bbbb' }));
    expect(mergeGameUpdate(held, moved)).toEqual({ kind: 'gap' });
  });

  it('takes an update in the old whole shape as the state, and a shapeless one as a gap', () => {
    const held = game({ version: 3, log: range(1, 3) });
    const whole = game({ version: 4, log: range(1, 4) });
    expect(mergeGameUpdate(held, whole)).toEqual({ kind: 'merged', data: whole });
    expect(mergeGameUpdate(held, { version: 5 } as unknown as GameUpdate)).toEqual({ kind: 'gap' });
  });
});

describe('mergeLogTail', () => {
  it('replaces every entry from the tail’s first seq on', () => {
    const tail = range(5, 14);
    expect(tail).toHaveLength(LOG_TAIL_SIZE);
    expect(seqs(mergeLogTail(range(1, 16), tail) ?? [])).toEqual(seqs(range(1, 14)));
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
 * seq; UNDO takes one too and removes the last entry that stands.
 */
function serverGame(random: () => number) {
  let nextSeq = 1;
  let version = 1;
  let log: GameLogEntry[] = [];
  return {
    state: (): GameDocument => game({ version, log, homeScore: log.length }),
    act(): void {
      const seq = nextSeq++;
      if (log.length > 0 && random() < 0.35) log = log.slice(0, -1);
      else log = [...log, entry(seq)];
      version += 1;
    },
  };
}

describe('mergeGameUpdate against a model of the server', () => {
  it('never shows a log other than the server’s, whatever frames are missed', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = rng(seed);
      const server = serverGame(random);
      // How often frames go missing (a slow reader's updates are coalesced).
      const missRate = [0, 0.3, 0.7, 0.95][seed % 4] ?? 0;
      let held = server.state();
      let gaps = 0;
      for (let step = 0; step < 80; step++) {
        server.act();
        if (random() < missRate) continue;
        const truth = server.state();
        const outcome = mergeGameUpdate(held, gameUpdateOf(truth));
        if (outcome.kind === 'gap') {
          gaps += 1;
          held = truth; // the snapshot that answers the re-subscribe
        } else {
          expect(seqs(outcome.data.log), `seed ${seed}, step ${step}`).toEqual(seqs(truth.log));
          expect(outcome.data.home.players).toBe(HOME_PLAYERS);
          held = outcome.data;
        }
      }
      // Nothing missed: nothing to ask for.
      if (missRate === 0) expect(gaps, `seed ${seed}`).toBe(0);
    }
  });
});
