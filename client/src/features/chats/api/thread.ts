// One conversation's thread while it is on screen: the REST read (first
// paint, my read mark, who I am there), the `chat:{id}` topic, history
// read page by page ("Load earlier"), holes filled, the replies to my edits
// and deletes, and my sends — all merged by model/outbox.ts into one list
// where every message is once. Marking read lives here too.

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { errorMessage } from '../../../lib/api';
import type { ChatMessage, ChatSnapshot } from '../../../lib/api-types';
import { useTopic } from '../../../lib/ws';
import { chatTopic, conversationOutboxAtomFamily, dropSendsAtom } from '../atoms';
import { earlierCursor, findHole, HOLE_LIMIT, mergeMessages, newestSeq, PAGE_LIMIT } from '../model/messages';
import { buildThread, serverMessages } from '../model/outbox';
import { fetchMessages, noteRead, putReadMark, useConversation } from './chats';

/** How long the thread must rest at the bottom before it is marked read (one PUT per burst, not per message). */
export const READ_DEBOUNCE_MS = 600;
/** A hole that could not be filled is tried again after this long. */
const HOLE_RETRY_MS = 5_000;

interface Earlier {
  /** The last page's `nextBefore`; undefined before the first page. */
  nextBefore?: number | null;
  loading: boolean;
  error: string | null;
}

export function useThread(conversationId: string, myId: string) {
  const head = useConversation(conversationId);
  // Subscribed once the read says I may: a refused subscription would only add noise.
  const live = useTopic<ChatSnapshot>(head.isSuccess ? chatTopic(conversationId) : null);
  const pending = useAtomValue(conversationOutboxAtomFamily(conversationId));
  const dropSends = useSetAtom(dropSendsAtom);
  const [held, setHeld] = useState<ChatMessage[]>([]);
  const absorb = useCallback((ms: readonly ChatMessage[]) => setHeld((h) => mergeMessages(h, ms)), []);

  const headMessages = head.data?.messages;
  const liveMessages = live?.data.messages;
  // What the topic showed stays on screen: a snapshot after a gap replaces
  // the topic's data with the latest 50 only, and what came live before it
  // (newer than the REST read) would otherwise drop out until the next read.
  // (Taken while rendering, React's way of following a changing input, so
  // no frame shows without them.)
  const [tookLive, setTookLive] = useState(liveMessages);
  if (liveMessages !== tookLive) {
    setTookLive(liveMessages);
    if (liveMessages) setHeld((h) => mergeMessages(h, liveMessages));
  }
  const messages = useMemo(() => serverMessages({ head: headMessages, live: liveMessages, held, pending }), [headMessages, liveMessages, held, pending]);
  const items = useMemo(() => buildThread({ head: headMessages, live: liveMessages, held, pending }, myId), [headMessages, liveMessages, held, pending, myId]);

  // A send whose server copy now comes from the server's side is done with.
  useEffect(() => {
    const shown = new Set(mergeMessages(headMessages, liveMessages, held).map((m) => m.id));
    dropSends(pending.filter((p) => p.state === 'sent' && p.message && shown.has(p.message.id)).map((p) => p.key));
  }, [headMessages, liveMessages, held, pending, dropSends]);
  // …and all of them when the thread goes (the next read has them).
  const pendingRef = useRef(pending);
  useEffect(() => {
    pendingRef.current = pending;
  }, [pending]);
  useEffect(() => () => dropSends(pendingRef.current.filter((p) => p.state === 'sent').map((p) => p.key)), [dropSends]);

  // History, page by page, from where the oldest message on screen is.
  const [earlier, setEarlier] = useState<Earlier>({ loading: false, error: null });
  const cursor = earlierCursor(messages, earlier.nextBefore);
  const loadEarlier = useCallback(() => {
    if (cursor === null || earlier.loading) return;
    setEarlier((e) => ({ ...e, loading: true, error: null }));
    fetchMessages(conversationId, cursor, PAGE_LIMIT).then(
      (page) => {
        absorb(page.items);
        setEarlier({ nextBefore: page.nextBefore, loading: false, error: null });
      },
      (err: unknown) => setEarlier((e) => ({ ...e, loading: false, error: errorMessage(err) })),
    );
  }, [conversationId, cursor, earlier.loading, absorb]);

  // A hole between what the read and the topic hold (more missed than a snapshot carries): read it.
  const hole = findHole(messages);
  const holeBefore = hole?.before ?? null;
  const holeMissing = hole?.missing ?? 0;
  const tried = useRef(new Set<number>());
  const [holeRetry, setHoleRetry] = useState(0);
  useEffect(() => {
    if (holeBefore === null || tried.current.has(holeBefore)) return undefined;
    const before = holeBefore;
    tried.current.add(before);
    let timer: ReturnType<typeof setTimeout> | undefined;
    fetchMessages(conversationId, before, Math.min(HOLE_LIMIT, holeMissing)).then(
      (page) => absorb(page.items),
      () => {
        timer = setTimeout(() => {
          tried.current.delete(before);
          setHoleRetry((n) => n + 1);
        }, HOLE_RETRY_MS);
      },
    );
    return () => clearTimeout(timer);
  }, [conversationId, holeBefore, holeMissing, holeRetry, absorb]);

  return {
    head,
    isLive: live !== null,
    messages,
    items,
    newest: newestSeq(messages),
    absorb,
    earlier: { has: cursor !== null, loading: earlier.loading, error: earlier.error, load: loadEarlier },
  };
}

/**
 * Mark the conversation read up to `newest` while `looking` (the thread is
 * on screen, the tab visible, scrolled to the bottom), debounced; the mark
 * only moves forward, so nothing is asked for a seq already marked.
 */
export function useMarkRead(conversationId: string, readSeq: number | undefined, newest: number, looking: boolean) {
  const queryClient = useQueryClient();
  const asked = useRef(0);
  const mark = useMutation({
    mutationFn: (seq: number) => putReadMark(conversationId, seq),
    onSuccess: (reply) => noteRead(queryClient, conversationId, reply),
    onError: () => {
      asked.current = 0; // ask again at the next chance
    },
  });
  const { mutate } = mark;
  useEffect(() => {
    if (!looking || readSeq === undefined || newest <= readSeq) return undefined;
    const t = setTimeout(() => {
      if (newest <= asked.current) return; // asked already; its answer moves `readSeq`
      asked.current = newest;
      mutate(newest);
    }, READ_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [looking, readSeq, newest, mutate]);
}
