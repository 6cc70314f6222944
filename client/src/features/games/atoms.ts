// Live state of the score keeper's console: the reply to their last action
// and what is in flight, per game. Kept in jotai so the console survives a
// remount (rotate the phone, hop to the game page and back) mid-action,
// and dropped when the console's `game:ID` topic is released (unless an
// action is still in flight then).

import { atom, type PrimitiveAtom } from 'jotai';
import { atomFamily, type AtomFamily } from 'jotai-family';
import type { GameDocument } from '../../lib/api-types';
import type { GameActionBody } from './model/commands';
import { GAME_TOPIC } from '../../lib/games';
import { releaseWithTopic } from '../../lib/ws';

export type ScoringActionKind = GameActionBody['type'] | 'LINEUP';

export interface ScoringFlight {
  phase: 'idle' | 'sending';
  /** What is in flight, for the spinner on the right button. */
  action: ScoringActionKind | null;
  /** The newest state a reply of ours carried; compared by version with the topic. */
  reply: GameDocument | null;
  /** The server refused the last action: why (nothing changed). */
  error: string | null;
  /** The refusal's code: `forbidden` means the viewer may no longer score. */
  errorCode: string | null;
  /** No answer came: the action may or may not have been applied. */
  unknown: { label: string; wasSent: boolean } | null;
  /** The last accepted action, confirmed briefly in the status bar. */
  done: { label: string; at: number } | null;
  /**
   * An action tapped while Rinkside could not be reached: it goes again,
   * with the same Idempotency-Key (so at most once), as soon as the socket
   * is live again, unless the score keeper drops it.
   */
  queued: { body: GameActionBody; label: string; key: string } | null;
}

export const IDLE_SCORING: ScoringFlight = { phase: 'idle', action: null, reply: null, error: null, errorCode: null, unknown: null, done: null, queued: null };

export const scoringFlightAtomFamily: AtomFamily<string, PrimitiveAtom<ScoringFlight>> = atomFamily(() => atom<ScoringFlight>(IDLE_SCORING));
releaseWithTopic(GAME_TOPIC, scoringFlightAtomFamily, (flight) => flight.phase !== 'idle');
