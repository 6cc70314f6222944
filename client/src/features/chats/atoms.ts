// Live state of chats that outlives a screen: my sends on their way, for
// every conversation, in one atom (model/outbox.ts says what each state
// means). A send written in one conversation keeps going out, or waiting
// for the connection, while I read another; the app's outbox runner
// (components/chat-outbox.tsx) re-sends the unsent ones when the socket is
// back. Kept for the tab's life, not across a reload.

import { atom } from 'jotai';
import { atomFamily } from 'jotai-family';
import { releaseWithTopic } from '../../lib/ws';
import type { PendingSend } from './model/outbox';

export const CHAT_TOPIC = 'chat';
export const chatTopic = (conversationId: string) => `${CHAT_TOPIC}:${conversationId}`;
export const CHATS_TOPIC = 'chats';

/** Every send of this tab not yet confirmed and shown from the server's copy, oldest first. */
export const outboxAtom = atom<PendingSend[]>([]);

/** One conversation's sends. */
export const conversationOutboxAtomFamily = atomFamily((conversationId: string) => atom((get) => get(outboxAtom).filter((p) => p.conversationId === conversationId)));
releaseWithTopic(CHAT_TOPIC, conversationOutboxAtomFamily);

/** Write a new send at the end. */
export const queueSendAtom = atom(null, (_get, set, send: PendingSend) => set(outboxAtom, (all) => [...all, send]));

/** Change one send (by key); nothing when it is gone (discarded meanwhile). */
export const patchSendAtom = atom(null, (_get, set, key: string, patch: Partial<PendingSend>) =>
  set(outboxAtom, (all) => (all.some((p) => p.key === key) ? all.map((p) => (p.key === key ? { ...p, ...patch } : p)) : all)),
);

/** Forget sends (discarded, or shown from the server's copy now). */
export const dropSendsAtom = atom(null, (_get, set, keys: readonly string[]) => {
  if (keys.length === 0) return;
  const gone = new Set(keys);
  set(outboxAtom, (all) => all.filter((p) => !gone.has(p.key)));
});
