// The history page's rows: the REST pages, with what the topic holds laid
// over them (newer arrivals on top, read marks from other tabs), by id.

import type { AppNotification } from './types';

export function mergePages(pages: readonly AppNotification[], live: readonly AppNotification[]): AppNotification[] {
  const byId = new Map<string, AppNotification>();
  for (const n of pages) byId.set(n.id, n);
  for (const n of live) {
    const had = byId.get(n.id);
    byId.set(n.id, had && had.readAt && !n.readAt ? had : n);
  }
  return [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
}
