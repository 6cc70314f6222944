import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { NOTIFICATIONS_TOPIC } from '../api/notifications';
import { foldNotificationsUpdate } from '../model/fold';
import { makeNotification } from '../model/test-fixtures';
import type { NotificationsDocument, NotificationsUpdate } from '../model/types';
import { NotificationBell } from './bell';

function setup() {
  const server = mockApi({
    'GET /notifications': { items: [], nextCursor: null },
    'GET /notifications/unread-count': { unread: 0 },
    'POST /notifications/read-all': { marked: 1, unread: 0 },
    'POST /notifications/:id/read': { id: 'n', readAt: '2026-11-24T18:00:00.000Z' },
  });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  const { queryClient } = renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <NotificationBell />
    </LiveSocketContext.Provider>,
    { store },
  );
  const topic = topicAtomFamily(NOTIFICATIONS_TOPIC);
  const snapshot = (doc: NotificationsDocument) => act(() => store.set(topic, { seq: 0, data: doc }));
  const push = (update: NotificationsUpdate) =>
    act(() => {
      const held = store.get(topic);
      store.set(topic, { seq: (held?.seq ?? 0) + 1, data: foldNotificationsUpdate(held?.data as NotificationsDocument | undefined, update) });
      live.emitUpdate(NOTIFICATIONS_TOPIC, update);
    });
  return { server, live, snapshot, push, queryClient, user: userEvent.setup() };
}

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static shown: { title: string; body?: string }[] = [];
  static requestPermission = vi.fn(async () => FakeNotification.permission);
  onclick: (() => void) | null = null;
  constructor(title: string, opts?: { body?: string }) {
    FakeNotification.shown.push({ title, body: opts?.body });
  }
  close() {}
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
}

afterEach(() => {
  vi.unstubAllGlobals();
  setVisibility('visible');
  FakeNotification.shown = [];
});

describe('NotificationBell', () => {
  it('subscribes to my notifications, counts the unread live and lists them in its panel', async () => {
    const { live, snapshot, push, user, server } = setup();
    expect(live.subscribe).toHaveBeenCalledWith(NOTIFICATIONS_TOPIC);
    snapshot({ items: [], nextCursor: null, unread: 0 });
    expect(screen.queryByTestId('bell-count')).not.toBeInTheDocument();
    push({ op: 'new', notification: makeNotification(), unread: 1 });
    expect(screen.getByTestId('bell-count')).toHaveTextContent('1');
    expect(screen.getByTestId('bell')).toHaveAccessibleName('Notifications, 1 unread');

    await user.click(screen.getByTestId('bell'));
    const row = screen.getByTestId('notification');
    expect(row).toHaveTextContent("You're in: Tuesday pickup");
    expect(row).toHaveAttribute('data-unread', 'true');
    await user.click(screen.getByTestId('mark-all-read'));
    expect(server.calls.some((c) => c.method === 'POST' && c.path === '/notifications/read-all')).toBe(true);
    push({ op: 'readAll', unread: 0 });
    expect(screen.queryByTestId('bell-count')).not.toBeInTheDocument();
  });

  it('shows a chat’s messages as one row that opens the conversation and is marked read like any other', async () => {
    const { snapshot, user, server } = setup();
    const chat = makeNotification({
      id: 'chat-1',
      type: 'CHAT_MESSAGE',
      resourceType: 'CONVERSATION',
      resourceId: 'roster-r-1',
      data: { conversationId: 'roster-r-1', title: 'Owls', from: 'Sid', preview: 'see you at 9', unread: 3 },
    });
    snapshot({ items: [chat], nextCursor: null, unread: 1 });
    await user.click(screen.getByTestId('bell'));
    const row = screen.getByTestId('notification');
    expect(row).toHaveTextContent('3 new messages in Owls');
    expect(row).toHaveTextContent('Sid: see you at 9');
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/chats/roster-r-1');
    await user.click(within(row).getByRole('link'));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'POST' && c.path === '/notifications/chat-1/read')).toBe(true));
  });

  it('shows a browser notification only while the tab is in the background', () => {
    vi.stubGlobal('Notification', FakeNotification);
    const { snapshot, push } = setup();
    snapshot({ items: [], nextCursor: null, unread: 0 });
    push({ op: 'new', notification: makeNotification({ id: 'seen' }), unread: 1 });
    expect(FakeNotification.shown).toEqual([]);
    setVisibility('hidden');
    push({ op: 'new', notification: makeNotification({ id: 'away' }), unread: 2 });
    expect(FakeNotification.shown).toHaveLength(1);
    expect(FakeNotification.shown[0]?.title).toBe("You're in: Tuesday pickup");
    push({ op: 'readAll', unread: 0 });
    expect(FakeNotification.shown).toHaveLength(1);
  });

  it('reloads my schedule when a new notification changes it, not for a reminder', () => {
    const { snapshot, push, queryClient } = setup();
    snapshot({ items: [], nextCursor: null, unread: 0 });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    push({ op: 'new', notification: makeNotification({ id: 'soon', type: 'EVENT_REMINDER' }), unread: 1 });
    expect(invalidate).not.toHaveBeenCalled();
    push({ op: 'new', notification: makeNotification({ id: 'in' }), unread: 2 });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['schedule'] });
  });
});
