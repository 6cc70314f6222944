// How a feature sends a command the server must apply at most once (an RSVP,
// a scoring action, an organiser's removal): over the tab's socket while it
// is live, where the reply is the outcome, and over REST with a fresh
// Idempotency-Key while it is not, so that a retry can never apply it twice.
// The feature owns the command's shape and its REST call; this owns the
// choice between them and the reading of failures.
//
// A failure is one of two things, and callers must tell them apart: the
// server refused (CommandRejectedError, or an ApiError with a 4xx: nothing
// changed, say why), or no answer came (`isUnknownOutcome`: a reply that
// timed out, a lost connection, a 5xx). The latter may still have been
// applied, so it is never reported as a failure: re-read and let the topic
// tell.

import { useCallback } from 'react';
import { ApiError } from './api';
import { randomId } from './random-id';
import { CommandRejectedError, UnknownOutcomeError, useConnectionState, useLiveSocket, type CommandBody, type ConnectionState, type LiveSocket } from './ws';

export interface SentCommand<T> {
  /** The server's answer: the socket reply's `data`, or the REST response body. */
  reply: T;
  /** True when the socket carried it: a topic push follows; after REST none does. */
  viaSocket: boolean;
}

/** The REST twin of a socket command, called with the Idempotency-Key to send. */
export type RestFallback<T> = (idempotencyKey: string) => Promise<T>;

/** A fresh Idempotency-Key for one command (never reused for another). */
export function newIdempotencyKey(): string {
  return randomId('r');
}

/**
 * Send `command` over `socket` if it is live, else call `rest`, with `key`
 * as its idempotency key on either path (the socket frame's `id`, or the
 * Idempotency-Key header: the server keeps one store for both). A caller
 * that may send the same command again later (a tap made during an outage,
 * re-sent when the server is back) passes the key it kept, so the server
 * applies it once whichever path each attempt took. The path is chosen once,
 * when called: a socket that drops meanwhile re-sends the same id itself.
 */
export async function sendCommand<T>(
  socket: LiveSocket | null,
  connection: ConnectionState,
  command: CommandBody,
  rest: RestFallback<T>,
  key: string = newIdempotencyKey(),
): Promise<SentCommand<T>> {
  if (socket && connection === 'live') return { reply: await socket.command<T>(command, undefined, key), viaSocket: true };
  return { reply: await rest(key), viaSocket: false };
}

/** `sendCommand` bound to the tab's socket and its connection state. */
export function useSendCommand() {
  const socket = useLiveSocket();
  const connection = useConnectionState();
  return useCallback(
    <T>(command: CommandBody, rest: RestFallback<T>, key?: string) => sendCommand<T>(socket, connection, command, rest, key),
    [socket, connection],
  );
}

/** No answer came (timeout, lost connection, a 5xx): the command may or may not have been applied. */
export function isUnknownOutcome(err: unknown): boolean {
  return err instanceof UnknownOutcomeError || (err instanceof ApiError && (err.code === 'network_error' || err.status >= 500));
}

/** The refusal's stable code (`forbidden`, `conflict`, …), or null when it is not a refusal the server sent. */
export function rejectionCode(err: unknown): string | null {
  if (err instanceof CommandRejectedError || err instanceof ApiError) return err.code;
  return null;
}
