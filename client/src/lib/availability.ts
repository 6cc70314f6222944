// Availability for every league game (docs/availability.md), the part two
// features share: the `availability:{rosterId}` topic (whose updates are
// one game, or the whole board when the rules changed, merged here into
// the board the snapshot gave) and the one write both the roster's board
// and My schedule make, a player's answer. The roster page owns the rest.

import { api } from './api';
import type { AvailabilityAnswer, AvailabilityBoard, AvailabilityUpdate, GameAvailability } from './api-types';
import { mergeTopicUpdates, type MergeOutcome } from './ws';

const enc = encodeURIComponent;

export const AVAILABILITY_TOPIC = 'availability';
export const availabilityTopic = (rosterId: string) => `${AVAILABILITY_TOPIC}:${rosterId}`;

const byStart = (a: GameAvailability, b: GameAvailability) => Date.parse(a.startsAt) - Date.parse(b.startsAt) || a.gameId.localeCompare(b.gameId);

/** The board's games with `game` in place of its old copy, or added in start order. */
export function withGame(games: readonly GameAvailability[], game: GameAvailability): GameAvailability[] {
  const at = games.findIndex((g) => g.gameId === game.gameId);
  if (at >= 0) return games.map((g, i) => (i === at ? game : g));
  return [...games, game].sort(byStart);
}

/**
 * One update into the held board: `{game}` replaces (or adds) that game,
 * `{rules, games}` is the whole board. Anything else cannot be placed: a
 * gap, so the socket asks for a fresh snapshot.
 */
export function mergeAvailabilityUpdate(held: AvailabilityBoard, update: AvailabilityUpdate): MergeOutcome<AvailabilityBoard> {
  if ('game' in update && update.game && typeof update.game.gameId === 'string') {
    return { kind: 'merged', data: { ...held, games: withGame(held.games, update.game) } };
  }
  if ('games' in update && Array.isArray(update.games)) {
    return { kind: 'merged', data: { rosterId: held.rosterId, rules: update.rules ?? held.rules, games: update.games } };
  }
  return { kind: 'gap' };
}

// Updates are ordered pieces of the board: merged into the snapshot, a stale
// one dropped by its seq. Registered here, where the topic is named.
mergeTopicUpdates(AVAILABILITY_TOPIC, mergeAvailabilityUpdate);

/** Where one player's answer to one game of a roster is written. */
export function answerPath(rosterId: string, gameId: string, userId: string): string {
  return `/rosters/${enc(rosterId)}/availability/${enc(gameId)}/players/${enc(userId)}`;
}

/**
 * Say in or out for a game (a player for themself; the team's staff for
 * anyone on a native game). For an imported game the server sends it as
 * the player's RSVP. Idempotent: the same answer again changes nothing.
 */
export function putAvailabilityAnswer(rosterId: string, gameId: string, userId: string, answer: AvailabilityAnswer): Promise<GameAvailability> {
  return api.put<GameAvailability>(answerPath(rosterId, gameId, userId), { answer });
}
