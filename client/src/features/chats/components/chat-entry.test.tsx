import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { createStore } from 'jotai';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { CHATS_TOPIC } from '../atoms';
import { makeChatMessage, makeChatsList, makeConversation, SID } from '../testing';
import { EventChatButton, TeamChatCard } from './chat-entry';

function setup(ui: ReactElement) {
  mockApi({
    'GET /chats': makeChatsList([
      makeConversation({ id: 'roster-r-1', unread: 0, lastMessage: makeChatMessage({ author: SID, body: 'see you at 9' }) }),
      makeConversation({ id: 'event-e-1', kind: 'EVENT', subjectId: 'e-1', title: 'Noon skate', unread: 0 }),
    ]),
  });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(<LiveSocketContext.Provider value={live.socket}>{ui}</LiveSocketContext.Provider>, { store });
  const counts = (unread: number, conversations: { id: string; unread: number }[]) =>
    act(() => store.set(topicAtomFamily(CHATS_TOPIC), { seq: 1, data: { unread, conversations } }));
  return { live, counts };
}

describe('TeamChatCard', () => {
  it('opens the roster’s chat, with its last message and my unread count, live', async () => {
    const { live, counts } = setup(<TeamChatCard rosterId="r-1" />);
    expect(await screen.findByTestId('team-chat-preview')).toHaveTextContent('Sid: see you at 9');
    expect(screen.getByTestId('open-team-chat')).toHaveAttribute('href', '/chats/roster-r-1');
    expect(screen.queryByTestId('chat-entry-unread')).not.toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith(CHATS_TOPIC);
    counts(2, [{ id: 'roster-r-1', unread: 2 }]);
    expect(screen.getByTestId('chat-entry-unread')).toHaveTextContent('2');
  });
});

describe('EventChatButton', () => {
  it('opens the event’s chat and shows its unread count', async () => {
    const { counts } = setup(<EventChatButton eventId="e-1" />);
    expect(screen.getByTestId('open-event-chat')).toHaveAttribute('href', '/chats/event-e-1');
    counts(1, [{ id: 'event-e-1', unread: 1 }]);
    await waitFor(() => expect(screen.getByTestId('chat-entry-unread')).toHaveTextContent('1'));
  });
});
