// My messages on their way (docs/chat.md › API: POST with an
// Idempotency-Key): what the thread shows for each, and how the thread is
// put together from everything the screen holds.
//
// Each send gets its key when it is written and keeps it for every attempt,
// so however many attempts reach the server (one whose answer was lost, the
// retry when the connection is back) the message is posted once. The
// server's copy replaces the pending one: by id once the reply names it,
// or, when the push comes first, by matching (below).

import type { ChatMessage } from '../../../lib/api-types';
import { mergeMessages } from './messages';

/**
 * - `queued`: waiting for its turn (messages of a conversation go out one
 *   at a time, in the order they were written);
 * - `sending`: on the wire;
 * - `unsent`: no answer (the network, a timeout, a 5xx): it may or may not
 *   have been posted, so it is sent again with the same key — by itself
 *   when the connection is back, or on Retry;
 * - `refused`: the server said no (429 too fast, 422 and the like), with why;
 * - `sent`: the reply came; `message` is the server's copy.
 */
export type PendingState = 'queued' | 'sending' | 'unsent' | 'refused' | 'sent';

export interface PendingSend {
  /** The Idempotency-Key, made when the message was written (crypto.randomUUID). */
  key: string;
  conversationId: string;
  /** Trimmed, as the server keeps it; the same on every attempt (another body under the key is 422). */
  body: string;
  /** This tab's clock when written: the order sends go out in and show in. */
  createdAt: string;
  /** The newest seq this screen knew when it was written: its server copy comes after. */
  afterSeq: number;
  state: PendingState;
  /** `refused`: why, in words for the person. */
  error: string | null;
  /** `refused`: whether trying again can help (a 429 can, a 422 cannot). */
  retryable: boolean;
  /** `sent`: the server's copy. */
  message: ChatMessage | null;
}

/** What the thread lists, oldest first: the server's messages, then mine still on their way. */
export type ThreadItem = { kind: 'message'; key: string; at: string; message: ChatMessage } | { kind: 'pending'; key: string; at: string; pending: PendingSend };

const sameText = (a: string, b: string) => a.trim() === b.trim();

/**
 * The server copies of sends whose reply has not come (yet, or ever: the
 * push can beat the reply, and a reply can be lost with the connection):
 * the oldest message of mine, with the same text, after what the screen
 * knew when it was written, not already some other send's. Sends are
 * matched in the order they were written, so two "ok"s in a row each find
 * their own. Answers send key → message.
 */
export function matchPending(pending: readonly PendingSend[], messages: readonly ChatMessage[], myId: string): Map<string, ChatMessage> {
  const claimed = new Set<string>(pending.flatMap((p) => (p.state === 'sent' && p.message ? [p.message.id] : [])));
  const matched = new Map<string, ChatMessage>();
  // A refused send was not posted; any other may have been.
  const open = pending.filter((p) => p.state === 'queued' || p.state === 'sending' || p.state === 'unsent').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const p of open) {
    const copy = messages.find((m) => m.author.id === myId && m.seq > p.afterSeq && !claimed.has(m.id) && m.body !== null && sameText(m.body, p.body));
    if (!copy) continue;
    claimed.add(copy.id);
    matched.set(p.key, copy);
  }
  return matched;
}

export interface ThreadSources {
  /** `GET /chats/{id}`'s messages. */
  head?: readonly ChatMessage[] | null;
  /** The `chat:{id}` topic's messages (its snapshot with every update merged). */
  live?: readonly ChatMessage[] | null;
  /** Pages of history, filled holes, and the replies to my edits and deletes. */
  held?: readonly ChatMessage[] | null;
  /** This conversation's sends. */
  pending?: readonly PendingSend[];
}

/** Every server message once (the sends' replies included), in conversation order. */
export function serverMessages(src: ThreadSources): ChatMessage[] {
  const replies = (src.pending ?? []).flatMap((p) => (p.state === 'sent' && p.message ? [p.message] : []));
  return mergeMessages(src.head, src.live, src.held, replies);
}

/**
 * The thread, oldest first: every message once, by id, from wherever it
 * came, then my sends that have no server copy yet, in the order written.
 */
export function buildThread(src: ThreadSources, myId: string): ThreadItem[] {
  const messages = serverMessages(src);
  const pending = src.pending ?? [];
  const matched = matchPending(pending, messages, myId);
  const items: ThreadItem[] = messages.map((m) => ({ kind: 'message', key: m.id, at: m.createdAt, message: m }));
  const waiting = pending.filter((p) => p.state !== 'sent' && !matched.has(p.key)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const p of waiting) items.push({ kind: 'pending', key: p.key, at: p.createdAt, pending: p });
  return items;
}
