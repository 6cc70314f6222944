import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { ChatMessage } from '../../../lib/api-types';
import { LiveSocketContext, type LiveSocket } from '../../../lib/ws';
import { makeUser } from '../../../testing/fixtures';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { apiError, mockApi, reply, type ApiCall } from '../../../testing/mock-api';
import { openLiveSocket } from '../../../testing/open-live-socket';
import { renderWithProviders } from '../../../testing/render';
import { chatTopic } from '../atoms';
import { CONVERSATION_ID, makeChatMessage, makeChatsList, makeConversation, makeConversationPage, ME, messagesFrom, SID } from '../testing';
import { ChatOutbox } from './chat-outbox';
import { ChatsPage } from './chats-page';

const TIMEOUT_MS = 20_000;
const TOPIC = chatTopic(CONVERSATION_ID);
const PATH = `/chats/${CONVERSATION_ID}`;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A promise the test settles: a request that has not answered yet. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const sockets: LiveSocket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) act(() => s.stop());
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
});

async function setup(routes: Parameters<typeof mockApi>[0], head = makeConversationPage({ messages: messagesFrom(1, 3), readSeq: 3, version: 3 })) {
  const store = createStore();
  const server = mockApi({
    'GET /chats': makeChatsList([makeConversation()]),
    [`GET /chats/${CONVERSATION_ID}`]: head,
    [`PUT /chats/${CONVERSATION_ID}/read`]: (call: ApiCall) => ({ readSeq: (call.body as { seq: number }).seq, unread: 0 }),
    ...routes,
  });
  const { socket, server: ws } = await openLiveSocket(store);
  sockets.push(socket);
  const user = makeUser({ id: ME.id, username: 'me', firstName: 'Mia', lastName: 'Me' });
  renderWithProviders(
    <LiveSocketContext.Provider value={socket}>
      <ChatOutbox />
      <ChatsPage />
    </LiveSocketContext.Provider>,
    { store, route: PATH, path: '/chats/:id', user },
  );
  const frame = (f: object) => act(() => ws.receive(f));
  const thread = await screen.findByTestId('chat-thread');
  // The topic is followed once the read says I may read it.
  await waitFor(() => expect(ws.framesOfType('subscribe')).toContainEqual({ type: 'subscribe', topic: TOPIC }));
  return { server, ws, frame, thread, store, user: userEvent.setup() };
}

const rows = () => screen.queryAllByTestId(/^chat-(message|pending)$/);
const texts = () => rows().map((r) => within(r).queryByTestId('chat-message-body')?.textContent ?? within(r).queryByTestId('chat-message-deleted')?.textContent ?? '');
const posts = (server: { callsTo: (m: string, p: string) => ApiCall[] }) => server.callsTo('POST', `/chats/${CONVERSATION_ID}/messages`);

describe('Thread', { timeout: TIMEOUT_MS }, () => {
  it('shows messages oldest first under their days, the newest at the bottom, and pages back to the first exactly once', async () => {
    const head = makeConversationPage({
      readSeq: 100,
      version: 100,
      messages: messagesFrom(51, 100, (seq) => ({ createdAt: seq <= 70 ? ago(24 * 60 + 100 - seq) : ago(100 - seq), author: seq % 2 ? SID : ME })),
    });
    const { server, user } = await setup(
      {
        [`GET /chats/${CONVERSATION_ID}/messages`]: (call: ApiCall) => {
          const before = Number(call.query.get('before'));
          // Pages overlap what is held on purpose: every message still shows once.
          if (before === 51) return { items: messagesFrom(2, 51, () => ({ createdAt: ago(3 * 24 * 60) })), nextBefore: 2 };
          if (before === 2) return { items: messagesFrom(1, 2, () => ({ createdAt: ago(3 * 24 * 60) })), nextBefore: null };
          return apiError(400, 'bad_request', `unexpected before=${before}`);
        },
      },
      head,
    );
    expect(screen.getAllByTestId('chat-day').map((d) => d.textContent)).toEqual(['Yesterday', 'Today']);
    expect(rows().map((r) => r.dataset.seq)).toEqual(Array.from({ length: 50 }, (_, i) => String(51 + i)));
    const last = rows().at(-1);
    expect(last && within(last).getByTestId('chat-message-body')).toHaveTextContent('Message 100');
    expect(screen.getByRole('log', { name: 'Messages in Owls' })).toBeInTheDocument();

    await user.click(screen.getByTestId('chat-load-earlier'));
    await waitFor(() => expect(rows()).toHaveLength(99));
    expect(server.callsTo('GET', `/chats/${CONVERSATION_ID}/messages`)[0]?.query.get('before')).toBe('51');
    await user.click(screen.getByTestId('chat-load-earlier'));
    await waitFor(() => expect(rows()).toHaveLength(100));
    expect(server.callsTo('GET', `/chats/${CONVERSATION_ID}/messages`)[1]?.query.get('before')).toBe('2');
    const seqs = rows().map((r) => Number(r.dataset.seq));
    expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(screen.queryByTestId('chat-load-earlier')).not.toBeInTheDocument();
    expect(screen.getByText('This is where the chat begins.')).toBeInTheDocument();
  });

  it('follows the topic: a new message at the bottom, an edit in place with "(edited)", a delete as "Message deleted", and re-subscribes on a skipped version', async () => {
    const { frame, ws } = await setup({});
    frame({ type: 'snapshot', topic: TOPIC, seq: 3, data: { conversationId: CONVERSATION_ID, version: 3, messages: messagesFrom(1, 3) } });
    frame({ type: 'update', topic: TOPIC, seq: 4, data: { message: makeChatMessage({ seq: 4, body: 'see you at 9' }) } });
    expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 3', 'see you at 9']);

    frame({ type: 'update', topic: TOPIC, seq: 5, data: { message: { ...makeChatMessage({ seq: 2 }), body: 'Ice at 9:30', editedAt: new Date().toISOString() } } });
    expect(texts()).toEqual(['Message 1', 'Ice at 9:30', 'Message 3', 'see you at 9']);
    expect(within(rows()[1] as HTMLElement).getByTestId('chat-message-edited')).toHaveTextContent('(edited)');

    frame({ type: 'update', topic: TOPIC, seq: 6, data: { message: { ...makeChatMessage({ seq: 3 }), body: null, deletedAt: new Date().toISOString() } } });
    expect(texts()).toEqual(['Message 1', 'Ice at 9:30', 'Message deleted', 'see you at 9']);

    // Version 7 never came: not taken, and the topic is asked for again from 6.
    frame({ type: 'update', topic: TOPIC, seq: 8, data: { message: makeChatMessage({ seq: 6, body: 'after a gap' }) } });
    expect(texts()).not.toContain('after a gap');
    expect(ws.framesOfType('subscribe').at(-1)).toEqual({ type: 'subscribe', topic: TOPIC, since: 6 });
    frame({ type: 'snapshot', topic: TOPIC, seq: 8, data: { conversationId: CONVERSATION_ID, version: 8, messages: [...messagesFrom(1, 1), makeChatMessage({ seq: 5, body: 'missed' }), makeChatMessage({ seq: 6, body: 'after a gap' })] } });
    // What was shown stays (merged by id) and the snapshot adds what was missed.
    expect(texts()).toEqual(['Message 1', 'Ice at 9:30', 'Message deleted', 'see you at 9', 'missed', 'after a gap']);
  });

  it('reads a hole a snapshot leaves (more missed than it carries) from the history', async () => {
    const { frame, server } = await setup({
      [`GET /chats/${CONVERSATION_ID}/messages`]: (call: ApiCall) => ({ items: messagesFrom(4, Number(call.query.get('before')) - 1), nextBefore: 4 }),
    });
    frame({ type: 'snapshot', topic: TOPIC, seq: 70, data: { conversationId: CONVERSATION_ID, version: 70, messages: messagesFrom(60, 70) } });
    await waitFor(() => expect(rows()).toHaveLength(70));
    const call = server.callsTo('GET', `/chats/${CONVERSATION_ID}/messages`)[0];
    expect([call?.query.get('before'), call?.query.get('limit')]).toEqual(['60', '56']);
  });

  it('shows my message at once as "Sending…" with an Idempotency-Key, and the push of the server’s copy replaces it before the reply', async () => {
    const answer = deferred<ChatMessage>();
    const { server, frame, user } = await setup({
      [`POST /chats/${CONVERSATION_ID}/messages`]: async () => reply(201, await answer.promise),
    });
    frame({ type: 'snapshot', topic: TOPIC, seq: 3, data: { conversationId: CONVERSATION_ID, version: 3, messages: messagesFrom(1, 3) } });

    await user.type(screen.getByTestId('chat-input'), 'Ice at 9, bring both jerseys{Enter}');
    expect(screen.getByTestId('chat-input')).toHaveValue('');
    const pending = screen.getByTestId('chat-pending');
    expect(pending).toHaveTextContent('Ice at 9, bring both jerseys');
    expect(within(pending).getByTestId('chat-pending-status')).toHaveTextContent('Sending…');
    await waitFor(() => expect(posts(server)).toHaveLength(1));
    const key = posts(server)[0]?.headers['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(posts(server)[0]?.body).toEqual({ body: 'Ice at 9, bring both jerseys' });

    const mine = makeChatMessage({ seq: 4, author: ME, body: 'Ice at 9, bring both jerseys', createdAt: new Date().toISOString() });
    frame({ type: 'update', topic: TOPIC, seq: 4, data: { message: mine } });
    expect(screen.queryByTestId('chat-pending')).not.toBeInTheDocument();
    expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 3', 'Ice at 9, bring both jerseys']);

    await act(async () => answer.resolve(mine));
    expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 3', 'Ice at 9, bring both jerseys']);
    expect(screen.queryByText('Sending…')).not.toBeInTheDocument();
  });

  it('keeps a message the network lost as "Not sent — Retry" and sends it again with the same key, once', async () => {
    let attempts = 0;
    const mine = makeChatMessage({ seq: 4, author: ME, body: 'On my way' });
    const { server, user } = await setup({
      [`POST /chats/${CONVERSATION_ID}/messages`]: () => {
        attempts += 1;
        if (attempts === 1) throw new TypeError('Failed to fetch');
        return reply(201, mine);
      },
    });
    await user.type(screen.getByTestId('chat-input'), 'On my way{Enter}');
    const pending = await screen.findByTestId('chat-pending');
    await waitFor(() => expect(pending).toHaveAttribute('data-state', 'unsent'));
    expect(within(pending).getByTestId('chat-pending-status')).toHaveTextContent('Not sent — Retry');

    await user.click(within(pending).getByTestId('chat-retry'));
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).not.toBeInTheDocument());
    expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 3', 'On my way']);
    const keys = posts(server).map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('sends an unsent message again by itself, with its key, when the socket is back', async () => {
    let attempts = 0;
    const mine = makeChatMessage({ seq: 4, author: ME, body: 'Running late' });
    const { server, ws, user } = await setup({
      [`POST /chats/${CONVERSATION_ID}/messages`]: () => {
        attempts += 1;
        // The first attempt reached the server but its answer was lost; the repeat of the key answers 200 with the same message.
        if (attempts === 1) throw new TypeError('Failed to fetch');
        return reply(200, mine);
      },
    });
    await user.type(screen.getByTestId('chat-input'), 'Running late{Enter}');
    await waitFor(() => expect(screen.getByTestId('chat-pending')).toHaveAttribute('data-state', 'unsent'));

    act(() => ws.drop());
    await waitFor(() => expect(FakeWebSocket.instances.length).toBeGreaterThan(1), { timeout: 3000 });
    await act(async () => FakeWebSocket.latest().open());
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).not.toBeInTheDocument());
    expect(texts().filter((t) => t === 'Running late')).toHaveLength(1);
    const keys = posts(server).map((c) => c.headers['Idempotency-Key']);
    expect(keys).toEqual([keys[0], keys[0]]);
  });

  it('says "You\'re sending too fast" on a 429 (and Retry sends the same key), and the server’s words on a 422', async () => {
    let attempts = 0;
    const { server, user } = await setup({
      [`POST /chats/${CONVERSATION_ID}/messages`]: (call: ApiCall) => {
        attempts += 1;
        if ((call.body as { body: string }).body.startsWith('bad')) return apiError(422, 'validation_failed', 'Message contains control characters');
        if (attempts === 1) return apiError(429, 'rate_limited', 'Slow down');
        return reply(201, makeChatMessage({ seq: 4, author: ME, body: 'hello' }));
      },
    });
    await user.type(screen.getByTestId('chat-input'), 'hello{Enter}');
    expect(await screen.findByTestId('chat-pending-error')).toHaveTextContent("You're sending too fast");
    await user.click(screen.getByTestId('chat-retry'));
    await waitFor(() => expect(screen.queryByTestId('chat-pending')).not.toBeInTheDocument());
    expect(posts(server)[1]?.headers['Idempotency-Key']).toBe(posts(server)[0]?.headers['Idempotency-Key']);

    await user.type(screen.getByTestId('chat-input'), 'bad one{Enter}');
    expect(await screen.findByTestId('chat-pending-error')).toHaveTextContent('Message contains control characters');
    expect(screen.queryByTestId('chat-retry')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('chat-discard'));
    expect(screen.queryByTestId('chat-pending')).not.toBeInTheDocument();
  });

  it('lets me edit my message inline and delete it, and a non-moderator touch nobody else’s', async () => {
    const head = makeConversationPage({ readSeq: 3, version: 3, messages: [...messagesFrom(1, 2), makeChatMessage({ seq: 3, author: ME, body: 'Ice at 9' })] });
    const { server, user } = await setup(
      {
        [`PATCH /chats/${CONVERSATION_ID}/messages/m-3`]: (call: ApiCall) => ({ ...makeChatMessage({ seq: 3, author: ME }), body: (call.body as { body: string }).body, editedAt: new Date().toISOString() }),
        [`DELETE /chats/${CONVERSATION_ID}/messages/m-3`]: reply(204),
      },
      head,
    );
    const [sids, , mine] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(sids).queryByTestId('chat-edit')).not.toBeInTheDocument();
    expect(within(sids).queryByTestId('chat-delete')).not.toBeInTheDocument();

    await user.click(within(mine).getByTestId('chat-edit'));
    const box = within(mine).getByTestId('chat-edit-input');
    expect(box).toHaveValue('Ice at 9');
    await user.clear(box);
    await user.type(box, 'Ice at 9:30{Enter}');
    await waitFor(() => expect(within(mine).getByTestId('chat-message-body')).toHaveTextContent('Ice at 9:30'));
    expect(within(mine).getByTestId('chat-message-edited')).toHaveTextContent('(edited)');
    expect(server.callsTo('PATCH', `/chats/${CONVERSATION_ID}/messages/m-3`)[0]?.body).toEqual({ body: 'Ice at 9:30' });

    await user.click(within(mine).getByTestId('chat-delete'));
    expect(server.callsTo('DELETE', `/chats/${CONVERSATION_ID}/messages/m-3`)).toHaveLength(0);
    await user.click(within(mine).getByRole('button', { name: 'Delete?' }));
    await waitFor(() => expect(within(mine).getByTestId('chat-message-deleted')).toHaveTextContent('Message deleted'));
    expect(within(mine).queryByTestId('chat-edit')).not.toBeInTheDocument();
  });

  it('gives a moderator Delete on anyone’s message', async () => {
    const { server, user } = await setup({ [`DELETE /chats/${CONVERSATION_ID}/messages/m-2`]: reply(204) }, makeConversationPage({ canModerate: true, messages: messagesFrom(1, 3), readSeq: 3, version: 3 }));
    const sids = rows()[1] as HTMLElement;
    expect(within(sids).queryByTestId('chat-edit')).not.toBeInTheDocument();
    await user.click(within(sids).getByTestId('chat-delete'));
    await user.click(within(sids).getByRole('button', { name: 'Delete?' }));
    await waitFor(() => expect(within(sids).getByTestId('chat-message-deleted')).toBeInTheDocument());
    expect(server.callsTo('DELETE', `/chats/${CONVERSATION_ID}/messages/m-2`)).toHaveLength(1);
  });

  it('marks read up to the newest message while I look, and not while the tab is hidden', async () => {
    const { server, frame } = await setup({}, makeConversationPage({ messages: messagesFrom(1, 3), readSeq: 1, version: 3 }));
    const marks = () => server.callsTo('PUT', `/chats/${CONVERSATION_ID}/read`).map((c) => c.body);
    await waitFor(() => expect(marks()).toEqual([{ seq: 3 }]), { timeout: 3000 });
    expect(screen.getByTestId('chat-unread-divider')).toBeInTheDocument();

    frame({ type: 'snapshot', topic: TOPIC, seq: 3, data: { conversationId: CONVERSATION_ID, version: 3, messages: messagesFrom(1, 3) } });
    frame({ type: 'update', topic: TOPIC, seq: 4, data: { message: makeChatMessage({ seq: 4 }) } });
    await waitFor(() => expect(marks()).toEqual([{ seq: 3 }, { seq: 4 }]), { timeout: 3000 });

    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    frame({ type: 'update', topic: TOPIC, seq: 5, data: { message: makeChatMessage({ seq: 5 }) } });
    await new Promise((r) => setTimeout(r, 900));
    expect(marks()).toHaveLength(2);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(marks()).toEqual([{ seq: 3 }, { seq: 4 }, { seq: 5 }]), { timeout: 3000 });
  });

  it('sends on Enter, starts a new line on Shift+Enter, and counts down near 2,000 characters', async () => {
    const { server, user } = await setup({ [`POST /chats/${CONVERSATION_ID}/messages`]: reply(201, makeChatMessage({ seq: 4, author: ME, body: 'two\nlines' })) });
    const input = screen.getByTestId('chat-input');
    await user.type(input, 'two{Shift>}{Enter}{/Shift}lines');
    expect(input).toHaveValue('two\nlines');
    expect(posts(server)).toHaveLength(0);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(posts(server)[0]?.body).toEqual({ body: 'two\nlines' }));

    expect(screen.queryByTestId('chat-counter')).not.toBeInTheDocument();
    await user.click(input);
    await user.paste('a'.repeat(1990));
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('1,990 / 2,000');
    expect(screen.getByTestId('chat-send')).toBeEnabled();
    await user.paste('b'.repeat(11));
    expect(screen.getByTestId('chat-counter')).toHaveTextContent('2,001 / 2,000');
    expect(screen.getByTestId('chat-send')).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(posts(server)).toHaveLength(1);
  });

  it('mutes and unmutes from the header', async () => {
    const { server, user } = await setup({ [`PUT /chats/${CONVERSATION_ID}/mute`]: (call: ApiCall) => makeConversation({ muted: (call.body as { muted: boolean }).muted }) });
    const mute = screen.getByTestId('chat-mute');
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await user.click(mute);
    await waitFor(() => expect(mute).toHaveAttribute('aria-pressed', 'true'));
    expect(server.callsTo('PUT', `/chats/${CONVERSATION_ID}/mute`)[0]?.body).toEqual({ muted: true });
    expect(await screen.findByTestId('chat-row-muted')).toBeInTheDocument();
  });
});

describe('Thread refused', () => {
  it("says who may read a roster's chat when I may not", async () => {
    mockApi({
      'GET /chats': makeChatsList([]),
      [`GET /chats/${CONVERSATION_ID}`]: apiError(403, 'forbidden', 'Not a member'),
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderWithProviders(<ChatsPage />, { route: PATH, path: '/chats/:id' });
    expect(await screen.findByTestId('chat-forbidden')).toHaveTextContent("Only the roster's players and staff can read this chat");
    expect(screen.queryByTestId('chat-composer')).not.toBeInTheDocument();
    warn.mockRestore();
  });
});
