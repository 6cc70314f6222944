// The console's pickers as a small state machine, so "GOAL → scorer →
// up to two assists" and "PENALTY → player → what was called" take as few
// taps as possible and the rules live in one tested place:
// - a goal sends as soon as the second assist is tapped; "Unassisted" or
//   "Send" after one assist sends what is picked; "No scorer" sends at once
//   (assists need a scorer, so none are asked);
// - a penalty sends as soon as its type is tapped.
// Both keep the game clock as it read when GOAL or PENALTY was tapped (the
// clock may run on while the score keeper picks); the penalty's time can
// be corrected on its last step.

import type { PenaltyKind } from '../../../lib/api-types';
import type { GameActionBody } from './commands';
import type { GameSide } from '../../../lib/games';

/** The penalties a score keeper calls, in the order the sheet offers them, with their minutes. */
export const PENALTY_CHOICES: ReadonlyArray<{ penalty: Exclude<PenaltyKind, 'OTHER'>; minutes: number }> = [
  { penalty: 'MINOR', minutes: 2 },
  { penalty: 'DOUBLE_MINOR', minutes: 4 },
  { penalty: 'MAJOR', minutes: 5 },
  { penalty: 'MISCONDUCT', minutes: 10 },
  { penalty: 'GAME_MISCONDUCT', minutes: 10 },
];
/** The server's limit: a goal has at most two assists. */
export const MAX_ASSISTS = 2;

/** The game clock when GOAL or PENALTY was tapped (null: the game has no clock running it). */
type At = { clockMs: number | null };

export type PickerState =
  | { step: 'closed' }
  | ({ step: 'scorer'; side: GameSide } & At)
  | ({ step: 'assists'; side: GameSide; scorerId: string; assistIds: string[] } & At)
  | ({ step: 'penalty-player'; side: GameSide } & At)
  | ({ step: 'penalty-kind'; side: GameSide; playerId: string } & At);

export type PickerEvent =
  | { type: 'goal'; side: GameSide; clockMs?: number | null }
  | { type: 'penalty'; side: GameSide; clockMs?: number | null }
  | { type: 'player'; userId: string }
  | { type: 'no-scorer' }
  | { type: 'unassisted' }
  | { type: 'send' }
  /** The penalty called, and its time as the score keeper left or corrected it. */
  | { type: 'penalty-kind'; penalty: PenaltyKind; clockMs: number | null }
  | { type: 'back' }
  | { type: 'cancel' };

/** What a goal or penalty needs besides the picks: the two rosters. */
export interface PickerRosters {
  home: string;
  away: string;
}

export interface PickerResult {
  state: PickerState;
  /** Set when the event completes an action: send it. */
  action: GameActionBody | null;
}

const CLOSED: PickerState = { step: 'closed' };

const withClock = (clockMs: number | null) => (clockMs === null ? {} : { clockMs });

function goal(rosters: PickerRosters, side: GameSide, scorerId: string | null, assistIds: string[], clockMs: number | null): GameActionBody {
  const rosterId = side === 'home' ? rosters.home : rosters.away;
  if (!scorerId) return { type: 'GOAL', rosterId, ...withClock(clockMs) };
  return assistIds.length > 0 ? { type: 'GOAL', rosterId, scorerId, assistIds, ...withClock(clockMs) } : { type: 'GOAL', rosterId, scorerId, ...withClock(clockMs) };
}

export function pickerStep(state: PickerState, event: PickerEvent, rosters: PickerRosters): PickerResult {
  const stay = { state, action: null };
  switch (event.type) {
    case 'goal':
      return { state: { step: 'scorer', side: event.side, clockMs: event.clockMs ?? null }, action: null };
    case 'penalty':
      return { state: { step: 'penalty-player', side: event.side, clockMs: event.clockMs ?? null }, action: null };
    case 'cancel':
      return { state: CLOSED, action: null };
    case 'back':
      if (state.step === 'assists') {
        // Un-pick the last assist first; with none, go back to the scorer.
        if (state.assistIds.length > 0) return { state: { ...state, assistIds: state.assistIds.slice(0, -1) }, action: null };
        return { state: { step: 'scorer', side: state.side, clockMs: state.clockMs }, action: null };
      }
      if (state.step === 'penalty-kind') return { state: { step: 'penalty-player', side: state.side, clockMs: state.clockMs }, action: null };
      return { state: CLOSED, action: null };
    case 'player':
      if (state.step === 'scorer') return { state: { step: 'assists', side: state.side, scorerId: event.userId, assistIds: [], clockMs: state.clockMs }, action: null };
      if (state.step === 'assists') {
        if (event.userId === state.scorerId) return stay;
        if (state.assistIds.includes(event.userId)) {
          return { state: { ...state, assistIds: state.assistIds.filter((a) => a !== event.userId) }, action: null };
        }
        const assistIds = [...state.assistIds, event.userId];
        if (assistIds.length >= MAX_ASSISTS) return { state: CLOSED, action: goal(rosters, state.side, state.scorerId, assistIds, state.clockMs) };
        return { state: { ...state, assistIds }, action: null };
      }
      if (state.step === 'penalty-player') return { state: { step: 'penalty-kind', side: state.side, playerId: event.userId, clockMs: state.clockMs }, action: null };
      return stay;
    case 'no-scorer':
      if (state.step !== 'scorer') return stay;
      return { state: CLOSED, action: goal(rosters, state.side, null, [], state.clockMs) };
    case 'unassisted':
      if (state.step !== 'assists') return stay;
      return { state: CLOSED, action: goal(rosters, state.side, state.scorerId, [], state.clockMs) };
    case 'send':
      if (state.step !== 'assists') return stay;
      return { state: CLOSED, action: goal(rosters, state.side, state.scorerId, state.assistIds, state.clockMs) };
    case 'penalty-kind':
      if (state.step !== 'penalty-kind') return stay;
      return {
        state: CLOSED,
        action: { type: 'PENALTY', rosterId: state.side === 'home' ? rosters.home : rosters.away, playerId: state.playerId, penalty: event.penalty, ...withClock(event.clockMs) },
      };
  }
}
