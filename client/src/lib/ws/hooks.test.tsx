import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { FakeWebSocket } from '../../testing/fake-websocket';
import { LiveSocketContext, useTopic, useTopicUpdates } from './hooks';
import { LiveSocket } from './socket';
import { topicAtomFamily } from './topics';

function Score({ topic }: { topic: string }) {
  const state = useTopic<{ homeScore: number; awayScore: number }>(topic);
  if (!state) return <p>waiting</p>;
  return (
    <p>
      {state.data.homeScore}–{state.data.awayScore} (seq {state.seq})
    </p>
  );
}

describe('useTopic', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.reset();
  });
  afterEach(() => vi.useRealTimers());

  it('subscribes while mounted, renders pushed state, and unsubscribes on unmount', async () => {
    const store = createStore();
    const socket = new LiveSocket({
      url: 'ws://x/api/v1/ws',
      getToken: async () => null,
      createSocket: (u) => new FakeWebSocket(u),
      store,
      unsubscribeLingerMs: 0,
    });
    socket.start();
    const ws = FakeWebSocket.latest();
    await act(async () => {
      ws.open();
      await vi.advanceTimersByTimeAsync(0);
    });

    const view = render(
      <JotaiProvider store={store}>
        <LiveSocketContext.Provider value={socket}>
          <Score topic="game:42" />
        </LiveSocketContext.Provider>
      </JotaiProvider>,
    );
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(ws.framesOfType('subscribe')).toEqual([{ type: 'subscribe', topic: 'game:42' }]);

    act(() => ws.receive({ type: 'snapshot', topic: 'game:42', seq: 1, data: { homeScore: 0, awayScore: 0 } }));
    expect(screen.getByText('0–0 (seq 1)')).toBeInTheDocument();
    act(() => ws.receive({ type: 'update', topic: 'game:42', seq: 2, data: { homeScore: 1, awayScore: 0 } }));
    expect(screen.getByText('1–0 (seq 2)')).toBeInTheDocument();

    view.unmount();
    expect(ws.framesOfType('unsubscribe')).toEqual([{ type: 'unsubscribe', topic: 'game:42' }]);
    socket.stop();
  });

  it('starts from nothing after a remount once the topic was released, and follows the new subscription', async () => {
    const store = createStore();
    const socket = new LiveSocket({
      url: 'ws://x/api/v1/ws',
      getToken: async () => null,
      createSocket: (u) => new FakeWebSocket(u),
      store,
      unsubscribeLingerMs: 0,
    });
    socket.start();
    const ws = FakeWebSocket.latest();
    await act(async () => {
      ws.open();
      await vi.advanceTimersByTimeAsync(0);
    });
    const tree = (
      <JotaiProvider store={store}>
        <LiveSocketContext.Provider value={socket}>
          <Score topic="game:43" />
        </LiveSocketContext.Provider>
      </JotaiProvider>
    );

    const first = render(tree);
    act(() => ws.receive({ type: 'snapshot', topic: 'game:43', seq: 4, data: { homeScore: 2, awayScore: 1 } }));
    expect(screen.getByText('2–1 (seq 4)')).toBeInTheDocument();
    first.unmount();
    expect(Array.from(topicAtomFamily.getParams())).not.toContain('game:43');

    render(tree);
    expect(screen.getByText('waiting')).toBeInTheDocument();
    act(() => ws.receive({ type: 'snapshot', topic: 'game:43', seq: 5, data: { homeScore: 3, awayScore: 1 } }));
    expect(screen.getByText('3–1 (seq 5)')).toBeInTheDocument();
    socket.stop();
  });

  it('reads the new entry when the one it rendered with was removed before it subscribed', () => {
    const store = createStore();
    store.set(topicAtomFamily('game:44'), { seq: 1, data: { homeScore: 9, awayScore: 9 } });
    // The topic's last release runs out between this render and its effects.
    const socket = {
      subscribe: (topic: string) => {
        topicAtomFamily.remove(topic);
        return () => {};
      },
    } as unknown as LiveSocket;
    render(
      <JotaiProvider store={store}>
        <LiveSocketContext.Provider value={socket}>
          <Score topic="game:44" />
        </LiveSocketContext.Provider>
      </JotaiProvider>,
    );
    expect(screen.getByText('waiting')).toBeInTheDocument();
    act(() => store.set(topicAtomFamily('game:44'), { seq: 2, data: { homeScore: 1, awayScore: 0 } }));
    expect(screen.getByText('1–0 (seq 2)')).toBeInTheDocument();
  });

  it('useTopicUpdates subscribes while mounted and hands over each update, with the newest callback', async () => {
    const store = createStore();
    const socket = new LiveSocket({ url: 'ws://x/api/v1/ws', getToken: async () => 'tok', createSocket: (u) => new FakeWebSocket(u), store, unsubscribeLingerMs: 0 });
    socket.start();
    const ws = FakeWebSocket.latest();
    await act(async () => {
      ws.open();
      await vi.advanceTimersByTimeAsync(0);
    });
    const heard: string[] = [];
    function Listener({ tag }: { tag: string }) {
      useTopicUpdates<{ id: string }>('feed', (item) => heard.push(`${tag}:${item.id}`));
      return null;
    }
    const tree = (tag: string) => (
      <JotaiProvider store={store}>
        <LiveSocketContext.Provider value={socket}>
          <Listener tag={tag} />
        </LiveSocketContext.Provider>
      </JotaiProvider>
    );
    const view = render(tree('a'));
    expect(ws.framesOfType('subscribe')).toEqual([{ type: 'subscribe', topic: 'feed' }]);
    act(() => ws.receive({ type: 'snapshot', topic: 'feed', seq: 1, data: { items: [] } }));
    act(() => ws.receive({ type: 'update', topic: 'feed', seq: 2, data: { id: 'i1' } }));
    view.rerender(tree('b'));
    act(() => ws.receive({ type: 'update', topic: 'feed', seq: 3, data: { id: 'i2' } }));
    expect(heard).toEqual(['a:i1', 'b:i2']);
    // Re-rendering with a new callback neither re-subscribes nor listens twice.
    expect(ws.framesOfType('subscribe')).toHaveLength(1);

    view.unmount();
    expect(ws.framesOfType('unsubscribe')).toEqual([{ type: 'unsubscribe', topic: 'feed' }]);
    act(() => ws.receive({ type: 'update', topic: 'feed', seq: 4, data: { id: 'i3' } }));
    expect(heard).toEqual(['a:i1', 'b:i2']);
    socket.stop();
  });
});
