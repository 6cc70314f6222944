// The socket's own tests (lib/ws/*.test.ts): a LiveSocket over fake
// WebSockets, with the defaults those tests count on (lowest jitter, no
// linger, always online) and a token per call ("token-1", "token-2", …),
// and the step that opens the newest fake socket.

import { vi } from 'vitest';
import type { createStore } from 'jotai';
import { LiveSocket, type LiveSocketOptions } from '../lib/ws/socket';
import { FakeWebSocket } from './fake-websocket';

/** A socket not yet started; `nextToken` gives each `auth` its token. */
export function makeTestSocket(store: ReturnType<typeof createStore>, nextToken: () => string | null, overrides: Partial<LiveSocketOptions> = {}): LiveSocket {
  return new LiveSocket({
    url: 'ws://rink.test/api/v1/ws',
    getToken: async () => nextToken(),
    createSocket: (url) => new FakeWebSocket(url),
    store,
    random: () => 0, // lowest jitter: delay = cap / 2
    unsubscribeLingerMs: 0,
    isOnline: () => true,
    ...overrides,
  });
}

/** Open the newest fake socket and let the async auth step finish (fake timers). */
export async function openLatest(): Promise<FakeWebSocket> {
  const ws = FakeWebSocket.latest();
  ws.open();
  await vi.advanceTimersByTimeAsync(0);
  return ws;
}
