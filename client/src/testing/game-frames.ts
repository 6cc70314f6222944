// `game:ID` frames as the server sends them (CONTRACT.md › WebSocket ›
// Update frames stay small), built from a test's whole game state: a
// snapshot carries the public state, an update the scoreboard and the last
// entries of the log, without `log` or player lists.

import type { GameDocument, GameUpdate } from '../lib/api-types';
import { gameTopic } from '../lib/games';
import { LOG_TAIL_SIZE } from '../lib/merge-game-update';

/** The public state only: a `Game` of the REST read also has `seasonId`, `scheduledAt` and `viewer`, which no push carries. */
export function gameDocumentOf(game: GameDocument): GameDocument {
  const { id, status, period, homeScore, awayScore, homeRosterId, awayRosterId, version, log, home, away, playersDigest } = game;
  const digest = playersDigest === undefined ? {} : { playersDigest };
  return { id, status, period, homeScore, awayScore, homeRosterId, awayRosterId, version, log, home, away, ...digest };
}

/** The `data` of the update the server sends when `game` is the new state. */
export function gameUpdateOf(game: GameDocument): GameUpdate {
  const { id, status, period, homeScore, awayScore, homeRosterId, awayRosterId, version, log, home, away, playersDigest } = game;
  return {
    ...(playersDigest === undefined ? {} : { playersDigest }),
    id,
    status,
    period,
    homeScore,
    awayScore,
    homeRosterId,
    awayRosterId,
    version,
    home: { rosterId: home.rosterId, name: home.name },
    away: { rosterId: away.rosterId, name: away.name },
    logTail: log.slice(-LOG_TAIL_SIZE),
  };
}

export function gameSnapshotFrame(game: GameDocument) {
  return { type: 'snapshot', topic: gameTopic(game.id), seq: game.version, data: gameDocumentOf(game) };
}

export function gameUpdateFrame(game: GameDocument) {
  return { type: 'update', topic: gameTopic(game.id), seq: game.version, data: gameUpdateOf(game) };
}
