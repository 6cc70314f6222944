// My conversations as the list and the nav show them: the `chats` own
// topic (my unread total, the conversations with unread messages) folded
// from its updates, laid over `GET /chats`; a last message's one-line
// preview; who may do what to a message.

import type { ChatMessage, ChatsList, ChatsSnapshot, ChatsUpdate, Conversation, UserSummary } from '../../../lib/api-types';
import type { MergeOutcome } from '../../../lib/ws';
import { displayName } from '../../../lib/format';
import { newerMessage } from './messages';

/** The `chats` topic's data as held: the snapshot, with each update's last message and version kept by conversation. */
export interface ChatsDoc extends ChatsSnapshot {
  /** Conversation id → its last message as the latest update said (absent: no update about it yet). */
  last?: Record<string, ChatMessage | null>;
  /** Conversation id → the version of the count held (docs/chat.md › Live). */
  versions?: Record<string, number>;
}

/**
 * One `chats` update into the held document. An update is one
 * conversation's count now; counts pushed after two quick messages may
 * arrive out of order, so one older than the count held (by the
 * conversation's version) changes nothing. My total is the sum over the
 * conversations I have not muted.
 */
export function mergeChatsUpdate(held: ChatsDoc, update: ChatsUpdate): MergeOutcome<ChatsDoc> {
  if (!update || typeof update.conversationId !== 'string' || typeof update.unread !== 'number') return { kind: 'gap' };
  const id = update.conversationId;
  const seen = held.versions?.[id];
  if (seen !== undefined && typeof update.version === 'number' && update.version < seen) return { kind: 'merged', data: held };
  const before = (held.conversations ?? []).find((c) => c.id === id);
  const others = (held.conversations ?? []).filter((c) => c.id !== id);
  const conversations = [...others, { id, unread: update.unread, muted: before?.muted ?? false }];
  return {
    kind: 'merged',
    data: {
      unread: conversations.filter((c) => !c.muted).reduce((n, c) => n + c.unread, 0),
      conversations,
      last: { ...held.last, [id]: update.lastMessage ?? null },
      versions: { ...held.versions, [id]: typeof update.version === 'number' ? update.version : (seen ?? 0) },
    },
  };
}

/** My unread in one conversation: the topic's word while it is live (absent there: none), else the list's. */
export function unreadIn(id: string, listed: Conversation | undefined, live: ChatsDoc | null): number {
  if (live) return live.conversations.find((c) => c.id === id)?.unread ?? 0;
  return listed?.unread ?? 0;
}

/** The later of two copies of a conversation's last message (by seq, then the message's own rules). */
export function laterMessage(a: ChatMessage | null | undefined, b: ChatMessage | null | undefined): ChatMessage | null {
  if (!a) return b ?? null;
  if (!b) return a;
  if (a.id === b.id) return newerMessage(a, b);
  return b.seq > a.seq ? b : a;
}

const lastAt = (c: Conversation) => (c.lastMessage ? Date.parse(c.lastMessage.createdAt) : Number.NaN);

/**
 * The list as it now stands: each conversation's unread and last message
 * brought up to date by the topic, the ones with the newest message first
 * and the rest in the server's order (by start or name), and my total.
 */
export function listView(list: ChatsList | undefined, live: ChatsDoc | null): { items: Conversation[]; unread: number } {
  const items = (list?.items ?? []).map((c) => {
    const lastMessage = laterMessage(c.lastMessage, live?.last?.[c.id]);
    const unread = unreadIn(c.id, c, live);
    return lastMessage === c.lastMessage && unread === c.unread ? c : { ...c, lastMessage, unread };
  });
  const ordered = items
    .map((c, i) => ({ c, i }))
    .sort((x, y) => {
      const a = lastAt(x.c);
      const b = lastAt(y.c);
      if (Number.isNaN(a) !== Number.isNaN(b)) return Number.isNaN(a) ? 1 : -1;
      if (!Number.isNaN(a) && a !== b) return b - a;
      return x.i - y.i;
    })
    .map(({ c }) => c);
  return { items: ordered, unread: live ? live.unread : (list?.unread ?? 0) };
}

/** How a person is named in one line: first name, else the display name. */
export function shortName(u: UserSummary): string {
  return u.firstName?.trim() || displayName(u);
}

/** Longest preview, in characters. */
const PREVIEW_CHARS = 80;

/** One line of a message: "Sid: see you at 9", "You: on my way", "Message deleted". */
export function previewOf(m: ChatMessage | null, myId: string): string {
  if (!m) return 'No messages yet';
  if (m.deletedAt || m.body === null) return 'Message deleted';
  const who = m.author.id === myId ? 'You' : shortName(m.author);
  const text = m.body.replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return `${who}: ${chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS - 1).join('')}…` : text}`;
}

/** What the person may do to a message (docs/chat.md: authors edit and delete theirs; moderators delete anyone's). */
export function allowedOn(m: ChatMessage, myId: string, canModerate: boolean): { edit: boolean; remove: boolean } {
  if (m.deletedAt) return { edit: false, remove: false };
  const mine = m.author.id === myId;
  return { edit: mine, remove: mine || canModerate };
}

/** What a conversation's id says it belongs to (`roster-…`, `event-…`), for a screen that could not read it. */
export function kindOfId(id: string): 'ROSTER' | 'EVENT' | null {
  if (id.startsWith('roster-')) return 'ROSTER';
  if (id.startsWith('event-')) return 'EVENT';
  return null;
}
