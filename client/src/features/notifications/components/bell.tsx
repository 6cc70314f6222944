// The header's bell: the unread count (live on the `notifications` topic),
// a panel of the latest with "Mark all read" and the way to the history
// page. While mounted it also shows a system notification for each new one
// that arrives when the tab is in the background (and alerts are allowed),
// and reloads my schedule when a new one changes it.

import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useDismiss } from '../../../lib/use-dismiss';
import { Link, useLocation, useNavigate } from 'react-router';
import { BellIcon } from '../../../components/ui/icons';
import { useTopicUpdates } from '../../../lib/ws';
import { NOTIFICATIONS_TOPIC, useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications';
import { showSystemAlert, tabIsHidden } from '../../../lib/browser-alerts';
import { changesMySchedule } from '../model/affects';
import { describeNotification } from '../model/describe';
import type { AppNotification, NotificationsUpdate } from '../model/types';
import { NotificationRow } from './notification-row';
import '../notifications.css';

/** Rows the panel shows. */
const IN_PANEL = 8;

export function NotificationBell() {
  const { doc } = useNotifications();
  const [open, setOpen] = useState(false);
  const closeMenu = useCallback(() => setOpen(false), []);
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const queryClient = useQueryClient();
  const unread = doc?.unread ?? 0;

  // Going to another page closes the panel.
  const [openedOn, setOpenedOn] = useState(location.pathname);
  if (openedOn !== location.pathname) {
    setOpenedOn(location.pathname);
    setOpen(false);
  }

  useTopicUpdates<NotificationsUpdate>(NOTIFICATIONS_TOPIC, (u) => {
    if (u.op !== 'new') return;
    if (changesMySchedule(u.notification.type)) void queryClient.invalidateQueries({ queryKey: ['schedule'] });
    if (!tabIsHidden()) return;
    const d = describeNotification(u.notification);
    showSystemAlert(d.title, d.body, u.notification.id, () => {
      markRead.mutate(u.notification.id);
      void navigate(d.href);
    });
  });

  useDismiss(open, ref, closeMenu);

  const opened = (n: AppNotification) => {
    if (!n.readAt) markRead.mutate(n.id);
    setOpen(false);
  };
  const items = doc?.items.slice(0, IN_PANEL) ?? [];

  return (
    <div className="bell" ref={ref}>
      <button
        type="button"
        className="bell__trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={() => setOpen((o) => !o)}
        data-testid="bell"
      >
        <BellIcon size={22} />
        {unread > 0 && (
          <span className="bell__count" data-testid="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div className="bell__panel" role="dialog" aria-label="Notifications" data-testid="bell-panel">
          <div className="bell__head">
            <strong>Notifications</strong>
            {unread > 0 && (
              <button type="button" className="bell__action" onClick={() => markAll.mutate()} disabled={markAll.isPending} data-testid="mark-all-read">
                Mark all read
              </button>
            )}
          </div>
          {items.length === 0 ? (
            <p className="bell__empty muted">Nothing yet. When a spot opens for you, a skate moves or your game starts, it shows up here.</p>
          ) : (
            <ul className="notif-list">
              {items.map((n) => (
                <NotificationRow key={n.id} n={n} onOpen={opened} />
              ))}
            </ul>
          )}
          <Link to="/notifications" className="bell__all" data-testid="all-notifications">
            See all notifications
          </Link>
        </div>
      )}
    </div>
  );
}
