import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeNotification } from '../model/test-fixtures';
import { NotificationsPage } from './notifications-page';

describe('NotificationsPage', () => {
  it('lists my notifications newest first and saves when I want reminders', async () => {
    const server = mockApi({
      'GET /notifications': {
        items: [
          makeNotification({ id: 'b', createdAt: '2026-11-24T19:00:00.000Z', type: 'EVENT_CANCELLED', data: { title: 'Friday skate' } }),
          makeNotification({ id: 'a', createdAt: '2026-11-24T18:00:00.000Z', readAt: '2026-11-24T18:30:00.000Z' }),
        ],
        nextCursor: null,
      },
      'GET /notifications/unread-count': { unread: 1 },
      'GET /me/notification-settings': { reminderMinutes: [1440, 120], subMatches: true },
      'PUT /me/notification-settings': (call) => call.body as object,
    });
    renderWithProviders(<NotificationsPage />);
    const rows = await screen.findAllByTestId('notification');
    expect(rows.map((r) => r.getAttribute('data-type'))).toEqual(['EVENT_CANCELLED', 'WAITLIST_PROMOTED']);
    expect(rows[0]).toHaveAttribute('data-unread', 'true');
    expect(rows[1]).toHaveAttribute('data-unread', 'false');
    expect(await screen.findByText('1 unread')).toBeInTheDocument();

    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByTestId('reminder-1440')).toBeChecked());
    expect(screen.getByTestId('reminder-30')).not.toBeChecked();
    await user.click(screen.getByTestId('reminder-120'));
    await user.click(screen.getByTestId('reminder-30'));
    await user.click(screen.getByTestId('save-reminders'));
    await waitFor(() => expect(server.callsTo('PUT', '/me/notification-settings')).toHaveLength(1));
    expect(server.callsTo('PUT', '/me/notification-settings')[0]?.body).toEqual({ reminderMinutes: [1440, 30] });
  });

  it('turns sub-match notifications off on its own, keeping the reminders', async () => {
    const server = mockApi({
      'GET /notifications': { items: [], nextCursor: null },
      'GET /notifications/unread-count': { unread: 0 },
      'GET /me/notification-settings': { reminderMinutes: [120], subMatches: true },
      'PUT /me/notification-settings': (call) => ({ reminderMinutes: [120], ...(call.body as object) }),
    });
    renderWithProviders(<NotificationsPage />);
    const box = await screen.findByTestId('sub-matches');
    await waitFor(() => expect(box).toBeEnabled());
    expect(box).toBeChecked();
    await userEvent.setup().click(box);
    await waitFor(() => expect(server.callsTo('PUT', '/me/notification-settings')).toHaveLength(1));
    expect(server.callsTo('PUT', '/me/notification-settings')[0]?.body).toEqual({ subMatches: false });
    await waitFor(() => expect(screen.getByTestId('sub-matches')).not.toBeChecked());
    expect(screen.getByTestId('reminder-120')).toBeChecked();
  });
});
