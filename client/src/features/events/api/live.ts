// The live side of an event page: the attendees document (topic push, with
// a REST read for the first paint and while the socket is down), the
// viewer's RSVP as a WebSocket command, and the organiser's removals.
//
// Outcomes come from replies, never from guesses: a reply says "attending"
// or "waitlisted #3" as the server decided it under contention. A command
// whose reply does not come (UnknownOutcomeError, or a REST call that lost
// its connection) may still have been applied, so we say "checking…" and
// re-read the event instead of reporting a failure.

import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api';
import type { HockeyPosition, RinkEvent } from '../../../lib/api-types';
import { isUnknownOutcome, newIdempotencyKey, useSendCommand } from '../../../lib/command';
import { UnknownOutcomeError, useConnectionState, useTopic, useTopicUpdates } from '../../../lib/ws';
import { eventDocAtomFamily, eventTopic, rsvpFlightAtomFamily } from '../atoms';
import { newestDoc } from '../model/standing';
import type { AttendeesDoc, RemoveAttendeeCommand, RsvpAction, RsvpCommand, RsvpReply } from '../model/types';
import { deleteAttendee, eventKeys, fetchEvent, putRsvp, useAttendeesRest } from './events';

/** How long pushes are gathered before the event itself is re-read. */
const EVENT_REFRESH_DEBOUNCE_MS = 400;

/** Subscribes to `event:ID` while mounted; returns the newest document known. */
export function useLiveAttendees(eventId: string) {
  const live = useTopic<AttendeesDoc>(eventTopic(eventId));
  const rest = useAttendeesRest(eventId);
  const doc = newestDoc(live?.data ?? null, rest.data ?? null);
  return { doc, isLive: live !== null, rest };
}

/**
 * A pushed document without subscribing: cards keep what the socket last
 * said, also once the topic is released and its atoms are gone.
 */
export function useKnownAttendees(eventId: string): AttendeesDoc | null {
  const pushed = useAtomValue(eventDocAtomFamily(eventId));
  const [kept, setKept] = useState<{ eventId: string; doc: AttendeesDoc } | null>(null);
  if (pushed && (kept?.eventId !== eventId || kept.doc !== pushed)) setKept({ eventId, doc: pushed });
  return pushed ?? (kept?.eventId === eventId ? kept.doc : null);
}

/**
 * After a push newer than the event we hold, re-read the event (its
 * `cancelledAt`, limits and the viewer block live there). Pushes are
 * gathered for a moment so a burst of RSVPs costs one read, and a read in
 * flight is never cancelled by the next push.
 */
export function useRefreshEventOnPush(event: RinkEvent, docVersion: number | null, alsoRefresh: readonly (readonly unknown[])[] = []) {
  const queryClient = useQueryClient();
  // The keys to refresh as they are when the timer fires, without restarting it when the list changes.
  const refreshExtra = useEffectEvent(() => {
    for (const key of alsoRefresh) void queryClient.refetchQueries({ queryKey: key, exact: true }, { cancelRefetch: false });
  });
  useEffect(() => {
    if (docVersion === null || docVersion <= event.version) return undefined;
    const t = setTimeout(() => {
      void queryClient.refetchQueries({ queryKey: eventKeys.detail(event.id), exact: true }, { cancelRefetch: false });
      refreshExtra();
    }, EVENT_REFRESH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [docVersion, event.version, event.id, queryClient]);
}

/** The signed-in user's own feed (CONTRACT.md › WebSocket); the feed feature owns its items. */
const FEED_TOPIC = 'feed';

/** What this page reads of a `feed` update: one feed item. */
interface FeedPush {
  type?: string;
  resourceType?: string;
  resourceId?: string;
}

/**
 * My feed says this event changed (EVENT_UPDATED about it: an organiser
 * moved it, or a league sync moved an imported game's time or rink): re-read
 * the event, which the `event:ID` topic would not push (its attendees did
 * not change). A read in flight is not cancelled.
 */
export function useRefetchOnFeedPush(eventId: string) {
  const queryClient = useQueryClient();
  useTopicUpdates<FeedPush | null>(FEED_TOPIC, (item) => {
    if (item?.type !== 'EVENT_UPDATED' || item.resourceId !== eventId) return;
    void queryClient.refetchQueries({ queryKey: eventKeys.detail(eventId), exact: true }, { cancelRefetch: false });
  });
}

/** The viewer's RSVP for one event. */
export function useRsvp(eventId: string) {
  const sendCommand = useSendCommand();
  const queryClient = useQueryClient();
  const connection = useConnectionState();
  const [flight, setFlight] = useAtom(rsvpFlightAtomFamily(eventId));

  /**
   * One tap: `key` is its idempotency key, new for a tap and the same for
   * every re-send of it, so however many attempts reach the server (a
   * socket frame that was sent before the outage, a REST retry, the re-send
   * when the socket is back) it is applied once.
   */
  const send = useCallback(
    async (action: RsvpAction, position?: HockeyPosition, key: string = newIdempotencyKey()) => {
      setFlight((f) => ({ ...f, phase: 'sending', action, position, key, error: null, note: null }));
      try {
        // The socket when it is up (the reply is the outcome); REST with the
        // same key otherwise, so a retry can never double-book.
        const command: RsvpCommand = { kind: 'rsvp', eventId, action, ...(position ? { position } : {}) };
        const { reply, viaSocket } = await sendCommand<RsvpReply>(command, (k) => putRsvp(eventId, action, position, k), key);
        setFlight((f) => ({ ...f, phase: 'idle', reply, key: undefined, error: null, note: null }));
        // Without the socket no push will follow: read the list again.
        if (!viaSocket) void queryClient.invalidateQueries({ queryKey: eventKeys.attendees(eventId) });
        void queryClient.invalidateQueries({ queryKey: eventKeys.lists });
        void queryClient.invalidateQueries({ queryKey: ['home', 'events'] });
      } catch (err) {
        if (!isUnknownOutcome(err)) {
          setFlight((f) => ({ ...f, phase: 'idle', key: undefined, error: errorMessage(err), note: null }));
          return;
        }
        setFlight((f) => ({ ...f, phase: 'checking', error: null, note: null }));
        // A frame that never left this tab cannot have been applied.
        const neverSent = err instanceof UnknownOutcomeError && !err.wasSent;
        let settled = false;
        let reached = false;
        try {
          // `fetchQuery` on the page's own key would put the page in an
          // error state if the server is down: read past the cache instead.
          const event = await fetchEvent(eventId);
          reached = true;
          queryClient.setQueryData(eventKeys.detail(eventId), event);
          void queryClient.invalidateQueries({ queryKey: eventKeys.attendees(eventId) });
          const status = event.viewer?.status ?? null;
          settled = action === 'ATTENDING' ? status === 'ATTENDING' || status === 'WAITLISTED' : status !== 'ATTENDING' && status !== 'WAITLISTED';
        } catch {
          // Out of reach: `reached` stays false.
        }
        if (settled) {
          setFlight((f) => ({ ...f, phase: 'idle', key: undefined, note: null }));
        } else if (reached && !neverSent) {
          // Not a failure: the server may still apply it; this page updates live when it does.
          setFlight((f) => ({ ...f, phase: 'idle', key: undefined, note: 'Rinkside has not confirmed your answer yet. This page updates by itself when it does.' }));
        } else {
          // The server is out of reach: hold the tap (with its key) until it is back.
          setFlight((f) => ({ ...f, phase: 'unsent', note: null }));
        }
      }
    },
    [sendCommand, eventId, queryClient, setFlight],
  );

  /** Send the held tap again, with its own key. */
  const retry = useCallback(() => {
    if (flight.phase !== 'unsent' || !flight.action) return;
    void send(flight.action, flight.position, flight.key);
  }, [flight, send]);

  /** Forget the held tap ("Don't send"). */
  const drop = useCallback(() => setFlight((f) => ({ ...f, phase: 'idle', action: null, key: undefined, error: null, note: null })), [setFlight]);

  // The socket is back: a held tap goes out by itself. Only on the way back
  // (not whenever the socket is live), so an answer the server keeps
  // failing waits for a Retry instead of going round in a loop.
  const resend = useEffectEvent(retry);
  const lastConnection = useRef(connection);
  useEffect(() => {
    const was = lastConnection.current;
    lastConnection.current = connection;
    if (connection === 'live' && was !== 'live') resend();
  }, [connection]);

  const dismiss = useCallback(() => setFlight((f) => ({ ...f, error: null, note: null })), [setFlight]);

  return { flight, send, retry, drop, dismiss };
}

export type RemovalState = { userId: string; phase: 'sending' | 'checking' } | null;

/** The organiser takes someone off the list (attending or waitlisted). */
export function useRemoveAttendee(eventId: string) {
  const sendCommand = useSendCommand();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<RemovalState>(null);
  const [error, setError] = useState<string | null>(null);

  const remove = useCallback(
    async (userId: string) => {
      setPending({ userId, phase: 'sending' });
      setError(null);
      try {
        const command: RemoveAttendeeCommand = { kind: 'removeAttendee', eventId, userId };
        await sendCommand<RsvpReply>(command, (key) => deleteAttendee(eventId, userId, key));
        void queryClient.invalidateQueries({ queryKey: eventKeys.attendees(eventId) });
      } catch (err) {
        if (isUnknownOutcome(err)) {
          setPending({ userId, phase: 'checking' });
          await queryClient.refetchQueries({ queryKey: eventKeys.attendees(eventId), exact: true }).catch(() => undefined);
        } else {
          setError(errorMessage(err));
        }
      } finally {
        setPending(null);
      }
    },
    [sendCommand, eventId, queryClient],
  );

  return { pending, error, remove, clearError: () => setError(null) };
}
