// What the sub market keeps across screens: the spots I tried to take.
// Taking a spot ends my AVAILABLE_TO_SUB status (docs/statuses.md), so the
// match I tapped drops out of the `matches` topic a moment after the reply;
// the claim keeps the outcome ("You're in", "Waitlisted #1") on screen
// until I dismiss it, also when I leave the page and come back.

import { atom } from 'jotai';
import type { Match, TakeSpotReply } from '../../lib/api-types';

export interface SpotClaim {
  eventId: string;
  /** The match as it was when tapped, to show after it drops. */
  match: Match;
  /** `checking`: no answer came, the event is being re-read to learn the outcome. */
  phase: 'sending' | 'checking' | 'done' | 'failed';
  reply: TakeSpotReply | null;
  /** Why it failed (a refusal the server sent, or an outcome we could not learn). */
  error: string | null;
}

/** eventId → my latest attempt at its spot, newest last. */
export const spotClaimsAtom = atom<Record<string, SpotClaim>>({});

/** Forget a claim (dismissed). */
export const dismissClaimAtom = atom(null, (get, set, eventId: string) => {
  const { [eventId]: _gone, ...rest } = get(spotClaimsAtom);
  set(spotClaimsAtom, rest);
});
