// Live state of events: the pushed attendees documents (from the tab's one
// socket) and the viewer's in-flight RSVP per event. Kept in jotai so a
// remounted page (navigate away and back mid-RSVP) picks up where it was.
// Both go when the event's topic is released, like the topic's own entry;
// an RSVP still in flight stays until a later release.

import { atom, type PrimitiveAtom } from 'jotai';
import { atomFamily, type AtomFamily } from 'jotai-family';
import { releaseWithTopic, topicAtomFamily } from '../../lib/ws';
import type { HockeyPosition } from '../../lib/api-types';
import type { RsvpAction, AttendeesDoc, RsvpReply } from './model/types';

const EVENT_TOPIC = 'event';

export const eventTopic = (eventId: string) => `${EVENT_TOPIC}:${eventId}`;

/** The newest pushed attendees document of an event, or null before the first. */
export const eventDocAtomFamily = atomFamily((eventId: string) =>
  atom((get) => (get(topicAtomFamily(eventTopic(eventId)))?.data as AttendeesDoc | undefined) ?? null),
);
releaseWithTopic(EVENT_TOPIC, eventDocAtomFamily);

export interface RsvpFlight {
  /**
   * `checking`: the outcome is unknown and we are re-reading the event.
   * `unsent`: the server could not be reached, so the answer is held (with
   * its key) and goes out again when the socket is back, or on Retry.
   */
  phase: 'idle' | 'sending' | 'checking' | 'unsent';
  /** What was asked last (for the spinner on the right button). */
  action: RsvpAction | null;
  /** The position asked for with the last ATTENDING, for a re-send. */
  position?: HockeyPosition;
  /**
   * The answer's idempotency key: one per tap, kept across every re-send
   * (socket or REST) so the server applies the tap once however many
   * attempts reach it.
   */
  key?: string;
  /** The last reply we got; compared by version with the live document. */
  reply: RsvpReply | null;
  /** The server refused the answer (not a timeout): show why. */
  error: string | null;
  /** A neutral remark after an unknown outcome that the re-read did not settle. */
  note: string | null;
}

export const IDLE_FLIGHT: RsvpFlight = { phase: 'idle', action: null, reply: null, error: null, note: null };

export const rsvpFlightAtomFamily: AtomFamily<string, PrimitiveAtom<RsvpFlight>> = atomFamily(() => atom<RsvpFlight>(IDLE_FLIGHT));
releaseWithTopic(EVENT_TOPIC, rsvpFlightAtomFamily, (flight) => flight.phase !== 'idle');
