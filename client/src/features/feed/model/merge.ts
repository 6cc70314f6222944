// Merging feed items from the REST pages, the topic's snapshot and its
// one-item updates. Pushes may come out of order and an item may come back
// grown (a second person joined the same team), so items are merged by id,
// the later `updatedAt` wins, and the list is ordered as the server orders
// it: `updatedAt` newest first, then `id` descending.

import type { FeedItem, FeedPage } from './types';

/** Server order: newer `updatedAt` first, then the larger id. */
export function compareFeedItems(a: FeedItem, b: FeedItem): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

/** The newer of two versions of the same item (the first on a tie). */
export function newerItem(a: FeedItem, b: FeedItem): FeedItem {
  return b.updatedAt > a.updatedAt ? b : a;
}

/** Every item of the lists once, in its newest version, in server order. */
export function mergeFeedItems(...lists: readonly (readonly FeedItem[])[]): FeedItem[] {
  const byId = new Map<string, FeedItem>();
  for (const list of lists) {
    for (const item of list) {
      const held = byId.get(item.id);
      byId.set(item.id, held ? newerItem(held, item) : item);
    }
  }
  return Array.from(byId.values()).sort(compareFeedItems);
}

/** What the `feed` topic holds: its snapshot page with every update folded in. */
export function foldFeedUpdate(held: FeedPage | undefined | null, update: FeedItem): FeedPage {
  if (!held) return { items: [update], nextCursor: null };
  return { items: mergeFeedItems(held.items, [update]), nextCursor: held.nextCursor };
}

/**
 * Items of `incoming` that the reader has not seen in that version: new ids,
 * or ids seen only in an older version.
 */
export function unseenItems(shown: readonly FeedItem[], incoming: readonly FeedItem[]): FeedItem[] {
  const seen = new Map(shown.map((i) => [i.id, i.updatedAt]));
  return incoming.filter((i) => {
    const at = seen.get(i.id);
    return at === undefined || i.updatedAt > at;
  });
}
