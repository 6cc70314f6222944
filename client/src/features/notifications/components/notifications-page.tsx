// `/notifications`: every notification, newest first (paged), mark all
// read, browser alerts, and when to be reminded before my events.

import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { BellIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { useMarkAllRead, useMarkRead, useNotificationPages, useNotifications, useNotificationSettings, useSaveNotificationSettings } from '../api/notifications';
import { mergePages } from '../model/pages';
import { AlertsState } from '../../../components/ui/alerts-offer';
import { NotificationRow } from './notification-row';
import '../notifications.css';

/** The reminder times offered (minutes before the start). */
export const REMINDER_CHOICES: { minutes: number; label: string }[] = [
  { minutes: 2880, label: '2 days before' },
  { minutes: 1440, label: 'A day before' },
  { minutes: 120, label: '2 hours before' },
  { minutes: 30, label: '30 minutes before' },
];

export function NotificationsPage() {
  const pages = useNotificationPages();
  const { doc } = useNotifications();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const items = mergePages(pages.data?.pages.flatMap((p) => p.items) ?? [], doc?.items ?? []);
  const unread = doc?.unread ?? 0;

  return (
    <div className="notifications-page">
      <PageHeader
        title="Notifications"
        subtitle={unread > 0 ? `${unread} unread` : 'All caught up'}
        actions={
          unread > 0 ? (
            <Button variant="secondary" onClick={() => markAll.mutate()} loading={markAll.isPending} data-testid="page-mark-all-read">
              Mark all read
            </Button>
          ) : undefined
        }
      />
      <AlertsState />
      {pages.isPending ? (
        <PageSpinner label="Loading notifications" />
      ) : pages.isError ? (
        <Alert tone="error">{errorMessage(pages.error)}</Alert>
      ) : items.length === 0 ? (
        <EmptyState icon={<BellIcon size={28} />} title="Nothing yet">
          When a spot opens for you, a skate moves or is cancelled, a team takes you on or your game starts, you hear it here.
        </EmptyState>
      ) : (
        <Card>
          <ul className="notif-list" data-testid="notification-history">
            {items.map((n) => (
              <NotificationRow key={n.id} n={n} onOpen={(x) => !x.readAt && markRead.mutate(x.id)} />
            ))}
          </ul>
          <LoadMore hasMore={Boolean(pages.hasNextPage)} loading={pages.isFetchingNextPage} onLoadMore={() => void pages.fetchNextPage()} />
        </Card>
      )}
      <ReminderSettings />
      <SubMatchSetting />
    </div>
  );
}

/** SUB_MATCH on or off, saved as soon as it is ticked (one setting, no form). */
function SubMatchSetting() {
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const on = save.isPending ? Boolean(save.variables?.subMatches) : (settings.data?.subMatches ?? true);
  return (
    <Card className="reminder-settings">
      <h2 className="reminder-settings__title">Sub matches</h2>
      <label className="reminder-settings__choice">
        <input
          type="checkbox"
          checked={on}
          disabled={!settings.data || save.isPending}
          onChange={(e) => save.mutate({ subMatches: e.target.checked })}
          data-testid="sub-matches"
        />
        Tell me when a new event with open places matches my availability to sub
      </label>
      {save.isError && <Alert tone="error">{errorMessage(save.error)}</Alert>}
    </Card>
  );
}

function ReminderSettings() {
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const [draft, setDraft] = useState<number[] | null>(null);
  const chosen = draft ?? settings.data?.reminderMinutes ?? [];
  const toggle = (m: number) => setDraft(chosen.includes(m) ? chosen.filter((x) => x !== m) : [...chosen, m]);
  const dirty = draft !== null;
  return (
    <Card className="reminder-settings">
      <h2 className="reminder-settings__title">Reminders before my events</h2>
      <p className="muted">For every skate and game you are in or waitlisted for.</p>
      {settings.isError && <Alert tone="error">{errorMessage(settings.error)}</Alert>}
      <fieldset className="reminder-settings__choices" disabled={!settings.data || save.isPending}>
        <legend className="sr-only">Remind me</legend>
        {REMINDER_CHOICES.map((c) => (
          <label key={c.minutes} className="reminder-settings__choice">
            <input type="checkbox" checked={chosen.includes(c.minutes)} onChange={() => toggle(c.minutes)} data-testid={`reminder-${c.minutes}`} />
            {c.label}
          </label>
        ))}
      </fieldset>
      {save.isError && <Alert tone="error">{errorMessage(save.error)}</Alert>}
      <div className="row">
        <Button
          disabled={!dirty}
          loading={save.isPending}
          onClick={() => save.mutate({ reminderMinutes: chosen }, { onSuccess: () => setDraft(null) })}
          data-testid="save-reminders"
        >
          Save reminders
        </Button>
        {save.isSuccess && !dirty && <span className="muted">Saved.</span>}
      </div>
    </Card>
  );
}
