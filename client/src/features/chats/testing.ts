// Fixtures for the chat tests: messages, conversations and the reads, in
// the wire's shapes (lib/api-types.ts), with readable defaults.

import type { ChatMessage, ChatsList, Conversation, ConversationPage, UserSummary } from '../../lib/api-types';

export const ME: UserSummary = { id: 'u-me', username: 'me', firstName: 'Mia', lastName: 'Me', profileImage: null };
export const SID: UserSummary = { id: 'u-sid', username: 'sid', firstName: 'Sid', lastName: 'Skater', profileImage: null };
export const DORA: UserSummary = { id: 'u-dora', username: 'dora', firstName: 'Dora', lastName: 'Defence', profileImage: null };

export const CONVERSATION_ID = 'roster-r-1';

/** A minute past 19:00 UTC on 24 Nov 2026, plus `minutes`. */
export const minute = (minutes: number, base = '2026-11-24T19:00:00.000Z') => new Date(Date.parse(base) + minutes * 60_000).toISOString();

export function makeChatMessage(over: Partial<ChatMessage> = {}): ChatMessage {
  const seq = over.seq ?? 1;
  return {
    id: `m-${seq}`,
    conversationId: CONVERSATION_ID,
    seq,
    author: SID,
    body: `Message ${seq}`,
    createdAt: minute(seq),
    editedAt: null,
    deletedAt: null,
    ...over,
  };
}

/** Messages `from`…`to` by Sid, a minute apart. */
export function messagesFrom(from: number, to: number, over: (seq: number) => Partial<ChatMessage> = () => ({})): ChatMessage[] {
  return Array.from({ length: to - from + 1 }, (_, i) => makeChatMessage({ seq: from + i, ...over(from + i) }));
}

export function makeConversation(over: Partial<Conversation> = {}): Conversation {
  return {
    id: CONVERSATION_ID,
    kind: 'ROSTER',
    subjectId: 'r-1',
    title: 'Owls',
    startsAt: null,
    lastMessage: null,
    unread: 0,
    muted: false,
    canModerate: false,
    ...over,
  };
}

export function makeConversationPage(over: Partial<ConversationPage> = {}): ConversationPage {
  return { ...makeConversation(over), messages: [], readSeq: 0, version: 0, ...over };
}

export function makeChatsList(items: Conversation[], unread = items.reduce((n, c) => n + c.unread, 0)): ChatsList {
  return { items, unread };
}
