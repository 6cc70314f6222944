// Live state of events: the pushed attendees documents (from the tab's one
// socket) and the viewer's in-flight RSVP per event. Kept in jotai so a
// remounted page (navigate away and back mid-RSVP) picks up where it was.

import { atom } from 'jotai';
import { atomFamily } from 'jotai-family';
import { topicAtomFamily } from '../../lib/ws';
import type { RsvpAction, AttendeesDoc, RsvpReply } from './model/types';

export const eventTopic = (eventId: string) => `event:${eventId}`;

/** The newest pushed attendees document of an event, or null before the first. */
export const eventDocAtomFamily = atomFamily((eventId: string) =>
  atom((get) => (get(topicAtomFamily(eventTopic(eventId)))?.data as AttendeesDoc | undefined) ?? null),
);

export interface RsvpFlight {
  /** `checking`: the outcome is unknown and we are re-reading the event. */
  phase: 'idle' | 'sending' | 'checking';
  /** What was asked last (for the spinner on the right button). */
  action: RsvpAction | null;
  /** The last reply we got; compared by version with the live document. */
  reply: RsvpReply | null;
  /** The server refused the answer (not a timeout): show why. */
  error: string | null;
  /** A neutral remark after an unknown outcome that the re-read did not settle. */
  note: string | null;
}

export const IDLE_FLIGHT: RsvpFlight = { phase: 'idle', action: null, reply: null, error: null, note: null };

export const rsvpFlightAtomFamily = atomFamily((_eventId: string) => atom<RsvpFlight>(IDLE_FLIGHT));
