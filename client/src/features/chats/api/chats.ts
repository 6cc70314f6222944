// REST for team chat (docs/chat.md › API) and its two topics: `chat:{id}`
// (one conversation's messages, merged update by update into its snapshot,
// a skipped version re-subscribing) and `chats` (my unread counts, the nav
// badge's and the list's). The thread's own state is in api/thread.ts and
// sends in api/outbox.ts.

import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import type { ChatMessage, ChatReadMark, ChatsList, Conversation, ConversationPage, MessagesPage } from '../../../lib/api-types';
import { mergeTopicUpdates, useTopic } from '../../../lib/ws';
import { CHAT_TOPIC, CHATS_TOPIC } from '../atoms';
import { laterMessage, listView, mergeChatsUpdate, type ChatsDoc } from '../model/conversations';
import { mergeChatUpdate, PAGE_LIMIT } from '../model/messages';

const enc = encodeURIComponent;

// Both topics push pieces: merged into the snapshot in seq order (a stale
// frame dropped), a `chat:` version skipped being a gap.
mergeTopicUpdates(CHAT_TOPIC, mergeChatUpdate);
mergeTopicUpdates(CHATS_TOPIC, mergeChatsUpdate);

export const chatKeys = {
  all: ['chats'] as const,
  list: ['chats', 'list'] as const,
  conversation: (id: string) => ['chats', 'conversation', id] as const,
};

/** No retry for a refusal (403: not a member; 404: no such roster or event): the screen says so at once. */
export const retryServerErrors = (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 2;

export const fetchChats = (signal?: AbortSignal) => api.get<ChatsList>('/chats', { signal });
export const fetchConversation = (id: string, signal?: AbortSignal) => api.get<ConversationPage>(`/chats/${enc(id)}`, { signal });
export const fetchMessages = (id: string, before: number, limit = PAGE_LIMIT, signal?: AbortSignal) =>
  api.get<MessagesPage>(`/chats/${enc(id)}/messages`, { signal, query: { before, limit } });

/** Post a message under its Idempotency-Key: a repeat with the key answers the message already posted, and posts nothing. */
export const postChatMessage = (id: string, body: string, idempotencyKey: string, signal?: AbortSignal) =>
  api.post<ChatMessage>(`/chats/${enc(id)}/messages`, { body }, { signal, headers: { 'Idempotency-Key': idempotencyKey } });
export const patchChatMessage = (id: string, messageId: string, body: string) => api.patch<ChatMessage>(`/chats/${enc(id)}/messages/${enc(messageId)}`, { body });
export const deleteChatMessage = (id: string, messageId: string) => api.delete(`/chats/${enc(id)}/messages/${enc(messageId)}`);
export const putReadMark = (id: string, seq: number) => api.put<ChatReadMark>(`/chats/${enc(id)}/read`, { seq });
export const putMute = (id: string, muted: boolean) => api.put<Conversation>(`/chats/${enc(id)}/mute`, { muted });

/** `GET /chats`, shared by the list, the entry cards and (while the topic is silent) the nav badge. */
export function useChatsList(enabled = true) {
  return useQuery({ queryKey: chatKeys.list, queryFn: ({ signal }) => fetchChats(signal), enabled });
}

/** The `chats` topic while mounted: my unread counts, live. */
export function useChatsLive(): ChatsDoc | null {
  return useTopic<ChatsDoc>(CHATS_TOPIC)?.data ?? null;
}

/** My unread total for the nav: the topic's, or `GET /chats`'s until it speaks. */
export function useChatsUnread(): number {
  const live = useChatsLive();
  const rest = useChatsList(live === null);
  return live ? live.unread : (rest.data?.unread ?? 0);
}

/** My conversations as they now stand (the list with the topic laid over it). */
export function useChatsView() {
  const live = useChatsLive();
  const list = useChatsList();
  const queryClient = useQueryClient();
  const view = listView(list.data, live);
  // A count for a conversation the list does not have (a roster I was just added to): read the list again.
  const unknown = list.data && live ? live.conversations.some((c) => !list.data.items.some((i) => i.id === c.id)) : false;
  useEffect(() => {
    if (unknown) void queryClient.invalidateQueries({ queryKey: chatKeys.list, exact: true });
  }, [unknown, queryClient]);
  return { ...view, list, isLive: live !== null };
}

/** `GET /chats/{id}`: the conversation, its latest messages, my read mark. */
export function useConversation(id: string) {
  return useQuery({ queryKey: chatKeys.conversation(id), queryFn: ({ signal }) => fetchConversation(id, signal), retry: retryServerErrors });
}

/** A conversation's new state (a mute's answer) into both caches. */
function putConversation(queryClient: QueryClient, c: Conversation) {
  queryClient.setQueryData<ConversationPage>(chatKeys.conversation(c.id), (old) => (old ? { ...old, ...c, messages: old.messages, readSeq: old.readSeq, version: old.version } : old));
  queryClient.setQueryData<ChatsList>(chatKeys.list, (old) => (old ? { ...old, items: old.items.map((i) => (i.id === c.id ? { ...i, ...c, lastMessage: laterMessage(i.lastMessage, c.lastMessage) } : i)) } : old));
}

/** A message of mine the server took: the list's preview follows at once (the topic's update may not name my own). */
export function noteSent(queryClient: QueryClient, m: ChatMessage) {
  queryClient.setQueryData<ChatsList>(chatKeys.list, (old) =>
    old ? { ...old, items: old.items.map((i) => (i.id === m.conversationId ? { ...i, lastMessage: laterMessage(i.lastMessage, m) } : i)) } : old,
  );
}

/** A read mark the server moved: the list's counts follow (the topic says the same a moment later). */
export function noteRead(queryClient: QueryClient, id: string, mark: ChatReadMark) {
  queryClient.setQueryData<ConversationPage>(chatKeys.conversation(id), (old) => (old ? { ...old, readSeq: Math.max(old.readSeq ?? 0, mark.readSeq), unread: mark.unread } : old));
  queryClient.setQueryData<ChatsList>(chatKeys.list, (old) => {
    if (!old) return old;
    const was = old.items.find((i) => i.id === id)?.unread ?? 0;
    return { unread: Math.max(0, old.unread - was + mark.unread), items: old.items.map((i) => (i.id === id ? { ...i, unread: mark.unread } : i)) };
  });
}

export function useMute(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (muted: boolean) => putMute(id, muted),
    onSuccess: (c) => putConversation(queryClient, c),
  });
}
