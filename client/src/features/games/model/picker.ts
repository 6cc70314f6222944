// The console's pickers as a small state machine, so "GOAL → scorer →
// up to two assists" and "PENALTY → player → minutes" take as few taps as
// possible and the rules live in one tested place:
// - a goal sends as soon as the second assist is tapped; "Unassisted" or
//   "Send" after one assist sends what is picked; "No scorer" sends at once
//   (assists need a scorer, so none are asked);
// - a penalty sends as soon as the minutes are tapped.

import type { GameActionBody } from './commands';
import type { GameSide } from '../../../lib/games';

/** Minutes offered for a penalty: minor, double minor, major, misconduct. */
export const PENALTY_MINUTES = [2, 4, 5, 10] as const;
/** The server's limit: a goal has at most two assists. */
export const MAX_ASSISTS = 2;

export type PickerState =
  | { step: 'closed' }
  | { step: 'scorer'; side: GameSide }
  | { step: 'assists'; side: GameSide; scorerId: string; assistIds: string[] }
  | { step: 'penalty-player'; side: GameSide }
  | { step: 'penalty-minutes'; side: GameSide; playerId: string };

export type PickerEvent =
  | { type: 'goal'; side: GameSide }
  | { type: 'penalty'; side: GameSide }
  | { type: 'player'; userId: string }
  | { type: 'no-scorer' }
  | { type: 'unassisted' }
  | { type: 'send' }
  | { type: 'minutes'; minutes: number }
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

function goal(rosters: PickerRosters, side: GameSide, scorerId: string | null, assistIds: string[]): GameActionBody {
  const rosterId = side === 'home' ? rosters.home : rosters.away;
  if (!scorerId) return { type: 'GOAL', rosterId };
  return assistIds.length > 0 ? { type: 'GOAL', rosterId, scorerId, assistIds } : { type: 'GOAL', rosterId, scorerId };
}

export function pickerStep(state: PickerState, event: PickerEvent, rosters: PickerRosters): PickerResult {
  const stay = { state, action: null };
  switch (event.type) {
    case 'goal':
      return { state: { step: 'scorer', side: event.side }, action: null };
    case 'penalty':
      return { state: { step: 'penalty-player', side: event.side }, action: null };
    case 'cancel':
      return { state: CLOSED, action: null };
    case 'back':
      if (state.step === 'assists') {
        // Un-pick the last assist first; with none, go back to the scorer.
        if (state.assistIds.length > 0) return { state: { ...state, assistIds: state.assistIds.slice(0, -1) }, action: null };
        return { state: { step: 'scorer', side: state.side }, action: null };
      }
      if (state.step === 'penalty-minutes') return { state: { step: 'penalty-player', side: state.side }, action: null };
      return { state: CLOSED, action: null };
    case 'player':
      if (state.step === 'scorer') return { state: { step: 'assists', side: state.side, scorerId: event.userId, assistIds: [] }, action: null };
      if (state.step === 'assists') {
        if (event.userId === state.scorerId) return stay;
        if (state.assistIds.includes(event.userId)) {
          return { state: { ...state, assistIds: state.assistIds.filter((a) => a !== event.userId) }, action: null };
        }
        const assistIds = [...state.assistIds, event.userId];
        if (assistIds.length >= MAX_ASSISTS) return { state: CLOSED, action: goal(rosters, state.side, state.scorerId, assistIds) };
        return { state: { ...state, assistIds }, action: null };
      }
      if (state.step === 'penalty-player') return { state: { step: 'penalty-minutes', side: state.side, playerId: event.userId }, action: null };
      return stay;
    case 'no-scorer':
      if (state.step !== 'scorer') return stay;
      return { state: CLOSED, action: goal(rosters, state.side, null, []) };
    case 'unassisted':
      if (state.step !== 'assists') return stay;
      return { state: CLOSED, action: goal(rosters, state.side, state.scorerId, []) };
    case 'send':
      if (state.step !== 'assists') return stay;
      return { state: CLOSED, action: goal(rosters, state.side, state.scorerId, state.assistIds) };
    case 'minutes':
      if (state.step !== 'penalty-minutes') return stay;
      return {
        state: CLOSED,
        action: { type: 'PENALTY', rosterId: state.side === 'home' ? rosters.home : rosters.away, playerId: state.playerId, minutes: event.minutes },
      };
  }
}
