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

export function foldNotificationsUpdate(held: NotificationsDocument | undefined, update: NotificationsUpdate): NotificationsDocument {
  const base: NotificationsDocument = held ?? { items: [], nextCursor: null, unread: 0 };
  switch (update.op) {
    case 'new': {
      if (base.items.some((n) => n.id === update.notification.id)) return { ...base, unread: update.unread };
      const items = [update.notification, ...base.items].sort(newestFirst).slice(0, KEEP);
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
