// Sending my messages (docs/chat.md › API, POST with an Idempotency-Key).
// A send is written into the outbox at once (the thread shows it as
// "Sending…"), then the conversation's sends go out one at a time, in the
// order written, each under the key it was written with:
//
// - the reply (201, or 200 for a repeat of the key) makes it `sent`, and
//   the thread shows the server's copy in its place;
// - no answer (the network, a timeout, a 5xx) makes it `unsent` ("Not sent
//   — Retry"), and the sends queued behind it wait with it; it goes out
//   again, with the same key, on Retry or when the connection is back
//   (components/chat-outbox.tsx), so a message whose first attempt did
//   reach the server is still posted once;
// - a refusal makes it `refused` with why: 429 "You're sending too fast"
//   (Retry can help), 422 and others in the server's words.

import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useStore } from 'jotai';
import { ApiError, errorMessage } from '../../../lib/api';
import { isUnknownOutcome, newIdempotencyKey } from '../../../lib/command';
import { outboxAtom, dropSendsAtom, patchSendAtom, queueSendAtom } from '../atoms';
import type { PendingSend } from '../model/outbox';
import { noteSent, postChatMessage } from './chats';

type JotaiStore = ReturnType<typeof useStore>;

export interface OutboxDeps {
  store: JotaiStore;
  queryClient: QueryClient;
}

/** A send with no answer this long is `unsent` (and goes again with its key). */
export const SEND_TIMEOUT_MS = 15_000;

export const TOO_FAST = "You're sending too fast. Wait a moment, then retry.";

/** Conversations whose sends are going out now, per store (one loop each). */
const flushing = new WeakMap<JotaiStore, Set<string>>();

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

/** One attempt at one send. */
async function deliver({ store, queryClient }: OutboxDeps, send: PendingSend): Promise<'sent' | 'unsent' | 'refused'> {
  store.set(patchSendAtom, send.key, { state: 'sending', error: null });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
  try {
    const message = await postChatMessage(send.conversationId, send.body, send.key, controller.signal);
    store.set(patchSendAtom, send.key, { state: 'sent', message, error: null });
    noteSent(queryClient, message);
    return 'sent';
  } catch (err) {
    if (isAbort(err) || isUnknownOutcome(err)) {
      store.set(patchSendAtom, send.key, { state: 'unsent', error: null });
      return 'unsent';
    }
    const tooFast = err instanceof ApiError && err.status === 429;
    store.set(patchSendAtom, send.key, { state: 'refused', error: tooFast ? TOO_FAST : errorMessage(err), retryable: tooFast });
    return 'refused';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Send a conversation's queued messages, oldest first, one at a time. When
 * one gets no answer the connection is presumably gone: the ones behind it
 * become `unsent` too, still in order, for the retry.
 */
export async function flushConversation(deps: OutboxDeps, conversationId: string): Promise<void> {
  let running = flushing.get(deps.store);
  if (!running) {
    running = new Set();
    flushing.set(deps.store, running);
  }
  if (running.has(conversationId)) return; // the running loop picks up what was queued meanwhile
  running.add(conversationId);
  try {
    for (;;) {
      const next = deps.store.get(outboxAtom).find((p) => p.conversationId === conversationId && p.state === 'queued');
      if (!next) break;
      if ((await deliver(deps, next)) === 'unsent') {
        for (const p of deps.store.get(outboxAtom)) {
          if (p.conversationId === conversationId && p.state === 'queued') deps.store.set(patchSendAtom, p.key, { state: 'unsent' });
        }
        break;
      }
    }
  } finally {
    running.delete(conversationId);
  }
}

/**
 * Put a conversation's unsent sends (and a refused one that may go now, a
 * 429) back in the queue, with their keys, and send them. Every
 * conversation's when `conversationId` is omitted (the connection is back).
 */
export function retrySends(deps: OutboxDeps, conversationId?: string): void {
  const again = deps.store.get(outboxAtom).filter((p) => (conversationId === undefined || p.conversationId === conversationId) && (p.state === 'unsent' || (p.state === 'refused' && p.retryable)));
  for (const p of again) deps.store.set(patchSendAtom, p.key, { state: 'queued', error: null });
  for (const id of new Set(again.map((p) => p.conversationId))) void flushConversation(deps, id);
}

/** Writing, retrying and discarding one conversation's messages. */
export function useSendMessage(conversationId: string) {
  const store = useStore();
  const queryClient = useQueryClient();

  /** `body` is sent trimmed; `afterSeq` is the newest seq on screen (its server copy comes after it). */
  const send = useCallback(
    (body: string, afterSeq: number) => {
      const text = body.trim();
      if (!text) return;
      const pending: PendingSend = {
        key: newIdempotencyKey(),
        conversationId,
        body: text,
        createdAt: new Date().toISOString(),
        afterSeq,
        state: 'queued',
        error: null,
        retryable: false,
        message: null,
      };
      store.set(queueSendAtom, pending);
      void flushConversation({ store, queryClient }, conversationId);
    },
    [store, queryClient, conversationId],
  );

  const retry = useCallback(() => retrySends({ store, queryClient }, conversationId), [store, queryClient, conversationId]);
  const discard = useCallback((key: string) => store.set(dropSendsAtom, [key]), [store]);

  return { send, retry, discard };
}
