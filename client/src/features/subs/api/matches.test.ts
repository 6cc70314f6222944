import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { LiveSocket, topicAtomFamily } from '../../../lib/ws';
import { FakeWebSocket } from '../../../testing/fake-websocket';
import { spotMatch, statusMatch } from '../model/test-fixtures';
import { MATCHES_TOPIC } from './matches';

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});
afterEach(() => vi.useRealTimers());

describe('the matches topic on the socket', () => {
  it('folds each update into the snapshot, also one that comes late', async () => {
    const store = createStore();
    const socket = new LiveSocket({ url: 'ws://t/api/v1/ws', getToken: async () => 't', createSocket: (u) => new FakeWebSocket(u), store, isOnline: () => true });
    socket.subscribe(MATCHES_TOPIC);
    socket.start();
    const ws = FakeWebSocket.latest();
    ws.open();
    await vi.advanceTimersByTimeAsync(0);

    const spot = spotMatch();
    const team = statusMatch();
    ws.receive({ type: 'snapshot', topic: MATCHES_TOPIC, seq: 100, data: { items: [team] } });
    ws.receive({ type: 'update', topic: MATCHES_TOPIC, seq: 300, data: { op: 'upsert', match: spot } });
    // seq is the server's clock: an update published a moment earlier may arrive after a later one.
    ws.receive({ type: 'update', topic: MATCHES_TOPIC, seq: 200, data: { op: 'drop', statusId: 's-theirs' } });
    expect(store.get(topicAtomFamily(MATCHES_TOPIC))).toEqual({ seq: 300, data: { items: [spot] } });
    socket.stop();
  });
});
