import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { createStore } from 'jotai';
import { LiveSocketContext, type LiveSocket } from '../../../lib/ws';
import { mockApi } from '../../../testing/mock-api';
import { openLiveSocket } from '../../../testing/open-live-socket';
import { renderWithProviders } from '../../../testing/render';
import { CHATS_TOPIC } from '../atoms';
import { DORA, makeChatMessage, makeChatsList, makeConversation, ME, minute, SID } from '../testing';
import { ChatsPage } from './chats-page';
import { ChatsUnreadBadge } from './chats-unread-badge';

const sockets: LiveSocket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) act(() => s.stop());
});

const owls = makeConversation({ id: 'roster-r-1', title: 'Owls', unread: 2, lastMessage: makeChatMessage({ seq: 9, author: SID, body: 'see you at 9', createdAt: minute(9) }) });
const skate = makeConversation({
  id: 'event-e-1',
  kind: 'EVENT',
  subjectId: 'e-1',
  title: 'Tuesday skate',
  muted: true,
  lastMessage: makeChatMessage({ seq: 2, conversationId: 'event-e-1', author: ME, body: 'in', createdAt: minute(2) }),
});

async function setup() {
  const store = createStore();
  const server = mockApi({ 'GET /chats': makeChatsList([owls, skate]) });
  const { socket, server: ws } = await openLiveSocket(store);
  sockets.push(socket);
  renderWithProviders(
    <LiveSocketContext.Provider value={socket}>
      <nav aria-label="Main">
        Messages
        <ChatsUnreadBadge />
      </nav>
      <ChatsPage />
    </LiveSocketContext.Provider>,
    { store, route: '/chats', path: '/chats' },
  );
  const frame = (f: object) => act(() => ws.receive(f));
  return { server, ws, frame };
}

const order = () => screen.getAllByTestId('chat-row').map((r) => r.dataset.id);
const row = (id: string) => screen.getAllByTestId('chat-row').find((r) => r.dataset.id === id) as HTMLElement;

describe('ConversationList', () => {
  it('lists my conversations with their last message, time, unread count and muted mark, and counts them in the nav', async () => {
    await setup();
    await waitFor(() => expect(order()).toEqual(['roster-r-1', 'event-e-1']));
    expect(within(row('roster-r-1')).getByTestId('chat-row-preview')).toHaveTextContent('Sid: see you at 9');
    expect(within(row('roster-r-1')).getByTestId('chat-row-unread')).toHaveTextContent('2');
    expect(row('roster-r-1')).toHaveAttribute('href', '/chats/roster-r-1');
    expect(within(row('event-e-1')).getByTestId('chat-row-preview')).toHaveTextContent('You: in');
    expect(within(row('event-e-1')).queryByTestId('chat-row-unread')).not.toBeInTheDocument();
    expect(within(row('event-e-1')).getByRole('img', { name: 'Muted' })).toBeInTheDocument();
    // Before the topic speaks, the nav counts from the list.
    expect(screen.getByTestId('chats-unread')).toHaveTextContent('2');
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveTextContent('Messages2, 2 unread');
  });

  it('follows the chats topic: counts, the preview and the order move live, and the nav count clears when all is read', async () => {
    const { frame, ws } = await setup();
    await waitFor(() => expect(order()).toHaveLength(2));
    expect(ws.framesOfType('subscribe')).toContainEqual({ type: 'subscribe', topic: CHATS_TOPIC });

    frame({ type: 'snapshot', topic: CHATS_TOPIC, seq: 1, data: { unread: 2, conversations: [{ id: 'roster-r-1', unread: 2 }] } });
    frame({
      type: 'update',
      topic: CHATS_TOPIC,
      seq: 2,
      data: { conversationId: 'event-e-1', version: 3, unread: 1, lastMessage: makeChatMessage({ seq: 3, conversationId: 'event-e-1', author: DORA, body: 'who has the puck bag', createdAt: minute(30) }) },
    });
    expect(order()).toEqual(['event-e-1', 'roster-r-1']);
    expect(within(row('event-e-1')).getByTestId('chat-row-unread')).toHaveTextContent('1');
    expect(within(row('event-e-1')).getByTestId('chat-row-preview')).toHaveTextContent('Dora: who has the puck bag');
    expect(screen.getByTestId('chats-unread')).toHaveTextContent('3');

    // Read elsewhere (another tab, the phone): both counts go.
    frame({ type: 'update', topic: CHATS_TOPIC, seq: 3, data: { conversationId: 'roster-r-1', version: 5, unread: 0, lastMessage: owls.lastMessage } });
    frame({ type: 'update', topic: CHATS_TOPIC, seq: 4, data: { conversationId: 'event-e-1', version: 4, unread: 0, lastMessage: null } });
    expect(within(row('roster-r-1')).queryByTestId('chat-row-unread')).not.toBeInTheDocument();
    expect(within(row('event-e-1')).queryByTestId('chat-row-unread')).not.toBeInTheDocument();
    expect(screen.queryByTestId('chats-unread')).not.toBeInTheDocument();
    // A stale frame changes nothing.
    frame({ type: 'update', topic: CHATS_TOPIC, seq: 2, data: { conversationId: 'event-e-1', version: 3, unread: 1, lastMessage: null } });
    expect(screen.queryByTestId('chats-unread')).not.toBeInTheDocument();
  });

  it('reads the list again when a count names a conversation it does not have (just added to a roster)', async () => {
    const { frame, server } = await setup();
    await waitFor(() => expect(order()).toHaveLength(2));
    frame({ type: 'snapshot', topic: CHATS_TOPIC, seq: 1, data: { unread: 1, conversations: [{ id: 'roster-new', unread: 1 }] } });
    await waitFor(() => expect(server.callsTo('GET', '/chats').length).toBeGreaterThan(1));
  });
});
