// A real LiveSocket over a FakeWebSocket, already open: for screens tested
// against the frames the server sends (snapshots, small updates, gaps)
// rather than against atoms set by hand. Stop it at the end of the test.

import { act } from '@testing-library/react';
import type { createStore } from 'jotai';
import { LiveSocket } from '../lib/ws';
import { FakeWebSocket } from './fake-websocket';

export async function openLiveSocket(store: ReturnType<typeof createStore>): Promise<{ socket: LiveSocket; server: FakeWebSocket }> {
  FakeWebSocket.reset();
  const socket = new LiveSocket({
    url: 'ws://rink.test/api/v1/ws',
    getToken: async () => null,
    createSocket: (url) => new FakeWebSocket(url),
    store,
    unsubscribeLingerMs: 0,
    isOnline: () => true,
  });
  socket.start();
  const server = FakeWebSocket.latest();
  // Opening asks for a token first (async); let that settle.
  await act(async () => server.open());
  return { socket, server };
}
