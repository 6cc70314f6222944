// `game:ID` frames as the server sends them (docs/game-night.md › Snapshot
// and update), built from a test's whole game states: a snapshot carries
// the public state, an update what changed from one state to the next —
// the scoreboard, the clock, shot totals, entries added (without names)
// and seqs undone — without `log` or player lists.

import type { GameDocument, GameLogEntry, GameUpdate } from '../lib/api-types';
import { gameTopic } from '../lib/games';

/** The public state only: a `Game` of the REST read also has `seasonId`, `scheduledAt` and `viewer`, which no push carries. */
export function gameDocumentOf(game: GameDocument): GameDocument {
  const { id, status, period, homeScore, awayScore, homeRosterId, awayRosterId, version, log, home, away, playersDigest, clock, penalties, goalies, shots, settings } = game;
  const optional = Object.fromEntries(Object.entries({ playersDigest, clock, penalties, goalies, shots, settings }).filter(([, v]) => v !== undefined));
  return { id, status, period, homeScore, awayScore, homeRosterId, awayRosterId, version, log, home, away, ...optional };
}

/** An entry as an update carries it: players by id only. */
function wireEntry(e: GameLogEntry): GameLogEntry {
  const { playerName: _name, assistNames: _assists, createdAt: _at, ...rest } = e;
  return rest;
}

const sum = (xs: readonly number[] | undefined) => (xs ? xs.reduce((a, b) => a + b, 0) : undefined);

/**
 * The `data` of the update the server sends when the game goes from
 * `prev` to `next`: entries of `next` that `prev` lacks (or had
 * otherwise), the seqs `prev` had that `next` does not, and `penalties` /
 * `goalies` only when they differ.
 */
export function gameUpdateOf(next: GameDocument, prev: GameDocument): GameUpdate {
  const before = new Map(prev.log.map((e) => [e.seq, JSON.stringify(e)]));
  const after = new Set(next.log.map((e) => e.seq));
  const update: GameUpdate = {
    since: prev.version,
    version: next.version,
    status: next.status,
    period: next.period,
    homeScore: next.homeScore,
    awayScore: next.awayScore,
    entries: next.log.filter((e) => before.get(e.seq) !== JSON.stringify(e)).map(wireEntry),
    undone: prev.log.filter((e) => !after.has(e.seq)).map((e) => e.seq),
  };
  if (next.playersDigest !== undefined) update.playersDigest = next.playersDigest;
  if (next.clock !== undefined) update.clock = next.clock;
  if (next.shots) {
    update.homeShots = sum(next.shots.home);
    update.awayShots = sum(next.shots.away);
  }
  if (next.penalties && JSON.stringify(next.penalties) !== JSON.stringify(prev.penalties)) update.penalties = next.penalties;
  if (next.goalies && JSON.stringify(next.goalies) !== JSON.stringify(prev.goalies)) update.goalies = next.goalies;
  return update;
}

export function gameSnapshotFrame(game: GameDocument) {
  return { type: 'snapshot', topic: gameTopic(game.id), seq: game.version, data: gameDocumentOf(game) };
}

export function gameUpdateFrame(next: GameDocument, prev: GameDocument) {
  return { type: 'update', topic: gameTopic(next.id), seq: next.version, data: gameUpdateOf(next, prev) };
}
