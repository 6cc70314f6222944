// Merging feed items from the REST pages, the topic's snapshot and its
// one-item updates. Pushes may come out of order and an item may come back
// grown (a second person joined the same team), so items are merged by id,
// the later `updatedAt` wins, and the list is ordered as the server orders
// it: `updatedAt` newest first, then `id` descending. A push may also
// change an item in place (its post was edited: same `updatedAt`, new
// `resource`) or take it away (`{"id","removed":true}`: its post was
// deleted; docs/realtime.md › Frames beyond the contract).

import type { FeedItem, FeedPage, FeedPush, FeedRemoval } from './types';

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

export function isRemoval(push: FeedPush): push is FeedRemoval {
  return (push as Partial<FeedRemoval>).removed === true;
}

/**
 * Whether a pushed version takes the held one's place: a later one does,
 * and so does one as late (an edit does not move its item, so the push is
 * the newer text); an older one, arriving late, does not.
 */
function replaces(held: FeedItem, pushed: FeedItem): boolean {
  return pushed.updatedAt >= held.updatedAt;
}

/**
 * What the `feed` topic holds: the snapshot's page with every update
 * folded in, and the snapshot's last item (`bottom`), noted at the first
 * fold: where the page ended before pushes moved grown items up.
 */
export interface LiveFeedPage extends FeedPage {
  bottom?: FeedItem;
}

/** Whether an item belongs to a page after the held one. */
function beyondPage(page: LiveFeedPage, item: FeedItem): boolean {
  return page.nextCursor !== null && page.bottom !== undefined && compareFeedItems(item, page.bottom) > 0;
}

/**
 * Folds one update into what the topic holds. A removal drops its item (an
 * unknown id changes nothing); an item replaces the held one of its id (in
 * place when its `updatedAt` is the same) or joins the page, unless it
 * belongs to a later page (an edit of an old item): that page brings it
 * when it is read.
 */
export function foldFeedUpdate(held: LiveFeedPage | undefined | null, update: FeedPush): LiveFeedPage {
  if (!held) return isRemoval(update) ? { items: [], nextCursor: null } : { items: [update], nextCursor: null };
  const page: LiveFeedPage = 'bottom' in held ? held : { ...held, bottom: held.items[held.items.length - 1] };
  if (isRemoval(update)) {
    if (!page.items.some((i) => i.id === update.id)) return page;
    return { ...page, items: page.items.filter((i) => i.id !== update.id) };
  }
  const current = page.items.find((i) => i.id === update.id);
  if (current && !replaces(current, update)) return page;
  if (!current && beyondPage(page, update)) return page;
  const items = page.items.filter((i) => i.id !== update.id);
  items.push(update);
  return { ...page, items: items.sort(compareFeedItems) };
}

/**
 * What pushes said about items that may already be on screen (from a REST
 * page, or revealed earlier): their pushed versions and the ids removed. It
 * outlives the topic's snapshots, so a post deleted before a reconnect
 * stays gone from the pages read before it.
 */
export interface FeedCorrections {
  readonly versions: ReadonlyMap<string, FeedItem>;
  readonly removed: ReadonlySet<string>;
}

export const NO_CORRECTIONS: FeedCorrections = { versions: new Map(), removed: new Set() };

/** Notes one push. */
export function noteFeedPush(held: FeedCorrections, push: FeedPush): FeedCorrections {
  if (isRemoval(push)) {
    if (held.removed.has(push.id)) return held;
    return { versions: held.versions, removed: new Set(held.removed).add(push.id) };
  }
  const current = held.versions.get(push.id);
  if (current && !replaces(current, push)) return held;
  return { versions: new Map(held.versions).set(push.id, push), removed: held.removed };
}

/**
 * The items as the pushes left them: removed ones gone, an item whose
 * pushed version has the same `updatedAt` (an edit) replaced where it
 * stands. A later version is not taken here: it moves its item to the top,
 * which waits for the reader like any new item.
 */
export function applyCorrections(items: readonly FeedItem[], corrections: FeedCorrections): FeedItem[] {
  const out: FeedItem[] = [];
  for (const item of items) {
    if (corrections.removed.has(item.id)) continue;
    const pushed = corrections.versions.get(item.id);
    out.push(pushed && pushed.updatedAt === item.updatedAt ? pushed : item);
  }
  return out;
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
