// Folding the `notifications` topic's updates into what the bell holds,
// and reading or marking read locally (the server confirms with the same
// change pushed back).

import type { AppNotification, NotificationsDocument, NotificationsUpdate } from './types';

/** Most notifications the bell's document keeps (the page pages the rest). */
export const KEEP = 50;

function newestFirst(a: AppNotification, b: AppNotification): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Whether `fresh` takes `old`'s place rather than joining it: the same
 * notification again, or (CHAT_MESSAGE, one per person and conversation,
 * replaced while unread: docs/chat.md) a newer one about the same
 * conversation, whatever its id.
 */
export function replaces(fresh: AppNotification, old: AppNotification): boolean {
  if (fresh.id === old.id) return true;
  return fresh.type === 'CHAT_MESSAGE' && old.type === 'CHAT_MESSAGE' && Boolean(fresh.data.conversationId) && fresh.data.conversationId === old.data.conversationId;
}

/** `fresh` says something `held` does not: later, or a replaced CHAT_MESSAGE's new words at the same time. */
export function isNewer(fresh: AppNotification, held: AppNotification): boolean {
  if (fresh.createdAt !== held.createdAt) return fresh.createdAt > held.createdAt;
  return fresh.type === 'CHAT_MESSAGE' && JSON.stringify(fresh.data) !== JSON.stringify(held.data);
}

export function foldNotificationsUpdate(held: NotificationsDocument | undefined, update: NotificationsUpdate): NotificationsDocument {
  const base: NotificationsDocument = held ?? { items: [], nextCursor: null, unread: 0 };
  switch (update.op) {
    case 'new': {
      const fresh = update.notification;
      // Held already, or something newer in its place: an update the snapshot
      // had (its seq is 0, so it comes again), or one that came late. A read
      // mark made meanwhile stays.
      if (base.items.some((n) => replaces(fresh, n) && !isNewer(fresh, n))) return { ...base, unread: update.unread };
      const items = [fresh, ...base.items.filter((n) => !replaces(fresh, n))].sort(newestFirst).slice(0, KEEP);
      return { ...base, items, unread: update.unread };
    }
    case 'read': {
      const ids = new Set(update.ids);
      const at = new Date().toISOString();
      return { ...base, items: base.items.map((n) => (ids.has(n.id) && !n.readAt ? { ...n, readAt: at } : n)), unread: update.unread };
    }
    case 'readAll': {
      const at = new Date().toISOString();
      return { ...base, items: base.items.map((n) => (n.readAt ? n : { ...n, readAt: at })), unread: update.unread };
    }
    default:
      return base;
  }
}
