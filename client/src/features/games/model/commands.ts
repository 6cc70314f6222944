// The score keeper's actions as they go over the wire: the body of POST
// /games/ID/actions, and the same fields in a `gameAction` socket command
// (CONTRACT.md › Games, docs/game-night.md for the clock, shots, goalies
// and penalties by type).

import type { PenaltyKind } from '../../../lib/api-types';

/** One scoring action. `clockMs` is the time left in the period when it happened (default: the clock now). */
export type GameActionBody =
  | { type: 'START' }
  | { type: 'GOAL'; rosterId: string; scorerId?: string; assistIds?: string[]; clockMs?: number }
  | { type: 'PENALTY'; rosterId: string; playerId: string; penalty: PenaltyKind; clockMs?: number }
  | { type: 'SHOT'; rosterId: string }
  | { type: 'GOALIE'; rosterId: string; playerId: string | null }
  | { type: 'CLOCK_START' }
  /** `at`: the console's estimate of the server instant of the tap, so the stop lands where the thumb was. */
  | { type: 'CLOCK_STOP'; at?: number }
  | { type: 'CLOCK_SET'; remainingMs: number }
  | { type: 'INTERMISSION'; minutes: number }
  | { type: 'END_PERIOD' }
  | { type: 'FINAL' }
  | { type: 'UNDO' };

/** A scoring action as a socket command. */
export type GameActionCommand = { kind: 'gameAction'; gameId: string } & GameActionBody;
