import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { FakeWebSocket } from '../testing/fake-websocket';
import { LiveSocket, LiveSocketContext, useTopic } from './ws';

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
});
