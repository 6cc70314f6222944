// The history page's rows: the REST pages, with what the topic holds laid
// over them (newer arrivals on top, read marks from other tabs), by id; a
// conversation's CHAT_MESSAGE once, its newest (it is replaced, not
// repeated: docs/chat.md).

import { isNewer, replaces } from './fold';
import type { AppNotification } from './types';

export function mergePages(pages: readonly AppNotification[], live: readonly AppNotification[]): AppNotification[] {
  const byId = new Map<string, AppNotification>();
  for (const n of pages) byId.set(n.id, n);
  for (const n of live) {
    const had = byId.get(n.id);
    // A read mark from another tab stays, unless the live one is a newer version (a replaced CHAT_MESSAGE).
    byId.set(n.id, had && had.readAt && !n.readAt && !isNewer(n, had) ? had : n);
  }
  const all = [...byId.values()];
  return all
    .filter((n) => !all.some((other) => other !== n && replaces(other, n) && isNewer(other, n)))
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
}
