// REST for notifications and the live `notifications` topic: the bell's
// document (the topic's snapshot with every change folded in, the REST
// read while the socket is down), the history pages, marking read, the
// reminder settings.

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Page } from '../../../lib/api-types';
import { foldTopicUpdates, useTopic } from '../../../lib/ws';
import { foldNotificationsUpdate } from '../model/fold';
import type { AppNotification, NotificationSettings, NotificationsDocument, NotificationsUpdate } from '../model/types';

export const NOTIFICATIONS_TOPIC = 'notifications';
const PAGE = 20;

// An update is one change: fold it into the snapshot instead of replacing it.
foldTopicUpdates(NOTIFICATIONS_TOPIC, (held, update) =>
  foldNotificationsUpdate(held as NotificationsDocument | undefined, update as NotificationsUpdate),
);

export const notificationKeys = {
  all: ['notifications'] as const,
  latest: ['notifications', 'latest'] as const,
  pages: ['notifications', 'pages'] as const,
  settings: ['notifications', 'settings'] as const,
};

/** The newest notifications and the unread count: live from the topic, REST until it speaks. */
export function useNotifications(): { doc: NotificationsDocument | null; isLive: boolean } {
  const live = useTopic<NotificationsDocument>(NOTIFICATIONS_TOPIC);
  const rest = useQuery({
    queryKey: notificationKeys.latest,
    queryFn: async ({ signal }) => {
      const [page, count] = await Promise.all([
        api.get<Page<AppNotification>>('/notifications', { signal, query: { limit: PAGE } }),
        api.get<{ unread: number }>('/notifications/unread-count', { signal }),
      ]);
      return { items: page.items, nextCursor: page.nextCursor, unread: count.unread } satisfies NotificationsDocument;
    },
    enabled: live === null,
  });
  return { doc: live?.data ?? rest.data ?? null, isLive: live !== null };
}

export function useNotificationPages() {
  return useInfiniteQuery({
    queryKey: notificationKeys.pages,
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<AppNotification>>('/notifications', { signal, query: { limit: PAGE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<AppNotification>(`/notifications/${encodeURIComponent(id)}/read`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ marked: number; unread: number }>('/notifications/read-all', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: ({ signal }) => api.get<NotificationSettings>('/me/notification-settings', { signal }),
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    // Only the settings given change (the server keeps the others).
    mutationFn: (s: Partial<NotificationSettings>) => api.put<NotificationSettings>('/me/notification-settings', s),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.settings, saved),
  });
}
