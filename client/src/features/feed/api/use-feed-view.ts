// What the home feed shows: the REST pages plus the items the socket pushed
// that the reader has been shown. A push lands at once while the reader is
// at the top of the page; once they have scrolled down it waits behind the
// "N new" pill, so nothing jumps under their eyes. An edit changes its item
// where it stands and a deletion takes it out, at once: neither moves
// anything else.

import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useTopicUpdates } from '../../../lib/ws';
import { applyCorrections, mergeFeedItems, noteFeedPush, NO_CORRECTIONS, unseenItems } from '../model/merge';
import type { FeedItem, FeedPush } from '../model/types';
import { FEED_TOPIC, useFeedPages, useLiveFeed } from './feed';

/** Within this many pixels of the top the reader counts as "at the top". */
const TOP_SLACK_PX = 120;

function subscribeScroll(cb: () => void) {
  window.addEventListener('scroll', cb, { passive: true });
  return () => window.removeEventListener('scroll', cb);
}
const readAtTop = () => window.scrollY <= TOP_SLACK_PX;

export function useAtTop(): boolean {
  return useSyncExternalStore(subscribeScroll, readAtTop, () => true);
}

export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function useFeedView() {
  const pages = useFeedPages();
  const live = useLiveFeed();
  const atTop = useAtTop();
  const restItems = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  /** Pushed items the reader has been shown, in the version shown. */
  const [revealed, setRevealed] = useState<FeedItem[]>([]);
  /** `id@updatedAt` of the items that came in live, for the slide-in. */
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());

  /** Edits and removals pushed, for the items already on screen. */
  const [corrections, setCorrections] = useState(NO_CORRECTIONS);
  useTopicUpdates<FeedPush>(FEED_TOPIC, (push) => setCorrections((c) => noteFeedPush(c, push)));

  const shown = useMemo(() => applyCorrections(mergeFeedItems(restItems, revealed), corrections), [restItems, revealed, corrections]);
  // A removed item stays removed, even if a push of its last edit comes in after the removal.
  const pending = useMemo(
    () => (live && pages.isSuccess ? unseenItems(shown, live).filter((i) => !corrections.removed.has(i.id)) : []),
    [live, pages.isSuccess, shown, corrections],
  );

  const reveal = useCallback(() => {
    if (pending.length === 0) return;
    setRevealed((r) => mergeFeedItems(r, pending));
    setFresh(new Set(pending.map(freshKey)));
  }, [pending]);

  // At the top, pushes go straight in (adjusting state while rendering: no
  // flash of the pill, and it settles since they are then no longer pending).
  if (atTop && pending.length > 0) reveal();

  const showNew = useCallback(() => {
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    reveal();
  }, [reveal]);

  return {
    items: shown,
    pendingCount: atTop ? 0 : pending.length,
    showNew,
    isFresh: (item: FeedItem) => fresh.has(freshKey(item)),
    pages,
  };
}

export const freshKey = (item: FeedItem) => `${item.id}@${item.updatedAt}`;
