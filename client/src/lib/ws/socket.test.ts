import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'jotai';
import { FakeWebSocket } from '../../testing/fake-websocket';
import { makeTestSocket, openLatest } from '../../testing/socket-harness';
import { TimeSync } from '../time-sync';
import { CommandRejectedError, UnknownOutcomeError } from './protocol';
import { connectionStateAtom, SYNC_BURST, SYNC_BURST_GAP_MS, type LiveSocketOptions } from './socket';
import { foldTopicUpdates, topicAtomFamily } from './topics';

type Store = ReturnType<typeof createStore>;

let store: Store;
let tokenCounter: number;

const makeSocket = (overrides: Partial<LiveSocketOptions> = {}) => makeTestSocket(store, () => `token-${++tokenCounter}`, overrides);

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
  store = createStore();
  tokenCounter = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveSocket connection', () => {
  it('sends auth as the very first frame, then the subscriptions, and reports live', async () => {
    const socket = makeSocket();
    socket.subscribe('game:1');
    socket.start();
    expect(store.get(connectionStateAtom)).toBe('connecting');

    const ws = await openLatest();

    expect(ws.url).toBe('ws://rink.test/api/v1/ws');
    expect(ws.framesButPings()).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'subscribe', topic: 'game:1' },
    ]);
    expect(store.get(connectionStateAtom)).toBe('live');
    socket.stop();
  });

  it('stays anonymous (no auth frame) when there is no token', async () => {
    const socket = makeSocket({ getToken: async () => null });
    socket.start();
    socket.subscribe('season:9');
    const ws = await openLatest();
    expect(ws.framesButPings()).toEqual([{ type: 'subscribe', topic: 'season:9' }]);
    socket.stop();
  });

  it('re-sends auth with a fresh token every 45 seconds', async () => {
    const socket = makeSocket({ heartbeatIntervalMs: 10 * 60_000 });
    socket.start();
    const ws = await openLatest();
    await vi.advanceTimersByTimeAsync(45_000);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(ws.framesOfType('auth')).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'auth', token: 'token-2' },
      { type: 'auth', token: 'token-3' },
    ]);
    socket.stop();
  });

  it('reconnects with growing jittered backoff and resubscribes with since = last seq', async () => {
    const socket = makeSocket({ backoffBaseMs: 1000 });
    socket.subscribe('event:7');
    socket.start();
    const first = await openLatest();
    first.receive({ type: 'snapshot', topic: 'event:7', seq: 3, data: { v: 3 } });
    first.receive({ type: 'update', topic: 'event:7', seq: 4, data: { v: 4 } });

    first.drop();
    expect(store.get(connectionStateAtom)).toBe('reconnecting');

    // attempt 0: cap 1000 ms, random 0 → 500 ms.
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeWebSocket.instances).toHaveLength(2);

    // The second attempt fails before opening: attempt 1 waits 1000 ms.
    FakeWebSocket.latest().drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    const third = await openLatest();
    expect(third.framesButPings()).toEqual([
      { type: 'auth', token: 'token-2' },
      { type: 'subscribe', topic: 'event:7', since: 4 },
    ]);
    expect(store.get(connectionStateAtom)).toBe('live');
    socket.stop();
  });

  it('spreads reconnects with jitter between half and all of the backoff cap', async () => {
    const socket = makeSocket({ backoffBaseMs: 1000, random: () => 0.999 });
    socket.start();
    const ws = await openLatest();
    ws.drop();
    await vi.advanceTimersByTimeAsync(998);
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(FakeWebSocket.instances).toHaveLength(2);
    socket.stop();
  });

  it('reports offline when the browser is offline', async () => {
    let online = true;
    const socket = makeSocket({ isOnline: () => online });
    socket.start();
    const ws = await openLatest();
    online = false;
    ws.drop();
    expect(store.get(connectionStateAtom)).toBe('offline');
    socket.stop();
  });

  it('treats a silent connection as dead and reconnects', async () => {
    const socket = makeSocket({ heartbeatIntervalMs: 1000 });
    socket.start();
    const ws = await openLatest();
    await vi.advanceTimersByTimeAsync(1000);
    // The time sync's burst of three, then the heartbeat.
    expect(ws.framesOfType('ping')).toHaveLength(SYNC_BURST + 1);
    // Nothing comes back for 2.5 intervals.
    await vi.advanceTimersByTimeAsync(2000);
    expect(ws.closedByClient).not.toBeNull();
    expect(store.get(connectionStateAtom)).toBe('reconnecting');
    socket.stop();
  });
});

describe('LiveSocket subscriptions', () => {
  it('ref-counts subscriptions: one subscribe frame, unsubscribe after the last release', async () => {
    const socket = makeSocket();
    socket.start();
    const ws = await openLatest();

    const a = socket.subscribe('game:1');
    const b = socket.subscribe('game:1');
    expect(ws.framesOfType('subscribe')).toEqual([{ type: 'subscribe', topic: 'game:1' }]);
    expect(socket.refCount('game:1')).toBe(2);

    a();
    a(); // releasing twice is harmless
    expect(ws.framesOfType('unsubscribe')).toEqual([]);
    b();
    expect(ws.framesOfType('unsubscribe')).toEqual([{ type: 'unsubscribe', topic: 'game:1' }]);
    expect(socket.refCount('game:1')).toBe(0);
    socket.stop();
  });

  it('keeps a released topic for the linger time so quick remounts do not churn', async () => {
    const socket = makeSocket({ unsubscribeLingerMs: 2000 });
    socket.start();
    const ws = await openLatest();
    const release = socket.subscribe('team:4');
    release();
    await vi.advanceTimersByTimeAsync(1000);
    const again = socket.subscribe('team:4');
    await vi.advanceTimersByTimeAsync(5000);
    expect(ws.framesOfType('subscribe')).toHaveLength(1);
    expect(ws.framesOfType('unsubscribe')).toHaveLength(0);
    again();
    await vi.advanceTimersByTimeAsync(2000);
    expect(ws.framesOfType('unsubscribe')).toHaveLength(1);
    socket.stop();
  });

  it('drops updates whose seq is not newer than the last seen', async () => {
    const socket = makeSocket();
    socket.subscribe('event:5');
    socket.start();
    const ws = await openLatest();
    const atom = topicAtomFamily('event:5');

    ws.receive({ type: 'snapshot', topic: 'event:5', seq: 10, data: { count: 2 } });
    expect(store.get(atom)).toEqual({ seq: 10, data: { count: 2 } });

    ws.receive({ type: 'update', topic: 'event:5', seq: 9, data: { count: 1 } });
    ws.receive({ type: 'update', topic: 'event:5', seq: 10, data: { count: 99 } });
    expect(store.get(atom)).toEqual({ seq: 10, data: { count: 2 } });

    ws.receive({ type: 'update', topic: 'event:5', seq: 12, data: { count: 3 } });
    expect(store.get(atom)).toEqual({ seq: 12, data: { count: 3 } });
    ws.receive({ type: 'update', topic: 'event:5', seq: 11, data: { count: 0 } });
    expect(store.get(atom)).toEqual({ seq: 12, data: { count: 3 } });
    socket.stop();
  });

  it('hands every taken update (not snapshots, not stale ones) to its listeners until they stop', async () => {
    foldTopicUpdates('inbox', (held, update) => ({ items: [...((held as { items: unknown[] } | undefined)?.items ?? []), update] }));
    const socket = makeSocket();
    socket.subscribe('event:8');
    socket.subscribe('inbox');
    socket.start();
    const ws = await openLatest();
    const event: unknown[] = [];
    const inbox: unknown[] = [];
    const stopEvent = socket.onUpdate('event:8', (d) => event.push(d));
    socket.onUpdate('inbox', (d) => inbox.push(d));

    ws.receive({ type: 'snapshot', topic: 'event:8', seq: 4, data: { count: 0 } });
    ws.receive({ type: 'update', topic: 'event:8', seq: 5, data: { count: 1 } });
    ws.receive({ type: 'update', topic: 'event:8', seq: 5, data: { count: 9 } });
    ws.receive({ type: 'snapshot', topic: 'inbox', seq: 1, data: { items: [] } });
    ws.receive({ type: 'update', topic: 'inbox', seq: 3, data: { id: 'b' } });
    // A folding topic takes a late seq too, so its listeners hear it.
    ws.receive({ type: 'update', topic: 'inbox', seq: 2, data: { id: 'a' } });
    expect(event).toEqual([{ count: 1 }]);
    expect(inbox).toEqual([{ id: 'b' }, { id: 'a' }]);

    stopEvent();
    ws.receive({ type: 'update', topic: 'event:8', seq: 6, data: { count: 2 } });
    expect(event).toEqual([{ count: 1 }]);
    expect(store.get(topicAtomFamily('event:8'))?.data).toEqual({ count: 2 });
    socket.stop();
  });

  it('treats a snapshot as replacing the state', async () => {
    const socket = makeSocket();
    socket.subscribe('event:3');
    socket.start();
    const ws = await openLatest();
    const atom = topicAtomFamily('event:3');
    ws.receive({ type: 'snapshot', topic: 'event:3', seq: 4, data: { attending: ['a'] } });
    ws.receive({ type: 'update', topic: 'event:3', seq: 5, data: { attending: ['a', 'b'] } });
    ws.receive({ type: 'snapshot', topic: 'event:3', seq: 5, data: { attending: ['b'] } });
    expect(store.get(atom)).toEqual({ seq: 5, data: { attending: ['b'] } });
    // Updates after the snapshot are judged against the snapshot's seq.
    ws.receive({ type: 'update', topic: 'event:3', seq: 5, data: { attending: [] } });
    expect(store.get(atom)?.data).toEqual({ attending: ['b'] });
    socket.stop();
  });

  it('ignores frames for topics nobody subscribes to', async () => {
    const socket = makeSocket();
    socket.start();
    const ws = await openLatest();
    ws.receive({ type: 'update', topic: 'game:404', seq: 1, data: {} });
    expect(store.get(topicAtomFamily('game:404'))).toBeNull();
    socket.stop();
  });
});

describe('LiveSocket commands', () => {
  it('resolves a command with the data of its ok reply', async () => {
    const socket = makeSocket();
    socket.start();
    const ws = await openLatest();
    const result = socket.command({ kind: 'rsvp', eventId: 'e1', action: 'ATTENDING' });
    const [frame] = ws.framesOfType('command');
    expect(frame).toMatchObject({ type: 'command', command: { kind: 'rsvp', eventId: 'e1', action: 'ATTENDING' } });
    ws.receive({ type: 'reply', id: frame?.id, ok: true, data: { status: 'ATTENDING', waitlistRank: null, version: 3 } });
    await expect(result).resolves.toEqual({ status: 'ATTENDING', waitlistRank: null, version: 3 });
    socket.stop();
  });

  it('rejects with CommandRejectedError on an ok:false reply', async () => {
    const socket = makeSocket();
    socket.start();
    const ws = await openLatest();
    const result = socket.command({ kind: 'gameAction', gameId: 'g1', type: 'START' });
    const id = ws.framesOfType('command')[0]?.id;
    ws.receive({ type: 'reply', id, ok: false, error: { code: 'forbidden', message: 'Not a score keeper' } });
    await expect(result).rejects.toBeInstanceOf(CommandRejectedError);
    await expect(result).rejects.toMatchObject({ code: 'forbidden' });
    socket.stop();
  });

  it('rejects with UnknownOutcomeError (not a failure) when no reply comes in time', async () => {
    const socket = makeSocket({ commandTimeoutMs: 5000 });
    socket.start();
    await openLatest();
    const result = socket.command({ kind: 'removeAttendee', eventId: 'e1', userId: 'u2' });
    const settled = result.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5000);
    const err = await settled;
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect(err).not.toBeInstanceOf(CommandRejectedError);
    expect((err as UnknownOutcomeError).wasSent).toBe(true);
    socket.stop();
  });

  it('ignores a reply that arrives after the timeout', async () => {
    const socket = makeSocket({ commandTimeoutMs: 1000 });
    socket.start();
    const ws = await openLatest();
    const settled = socket.command({ kind: 'rsvp', eventId: 'e', action: 'DECLINED' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    ws.receive({ type: 'reply', id: ws.framesOfType('command')[0]?.id, ok: true, data: {} });
    expect(await settled).toBeInstanceOf(UnknownOutcomeError);
    socket.stop();
  });

  it('sends a command queued while disconnected once connected, and re-sends the same id after a reconnect', async () => {
    const socket = makeSocket({ commandTimeoutMs: 60_000, backoffBaseMs: 100 });
    socket.start();
    const result = socket.command({ kind: 'rsvp', eventId: 'e9', action: 'ATTENDING', position: 'GOALIE' });
    const first = await openLatest();
    const sent = first.framesOfType('command');
    expect(sent).toHaveLength(1);

    first.drop();
    await vi.advanceTimersByTimeAsync(100);
    const second = await openLatest();
    const resent = second.framesOfType('command');
    expect(resent).toHaveLength(1);
    expect(resent[0]?.id).toBe(sent[0]?.id);
    // Auth still comes first on the new connection.
    expect(second.frames()[0]?.type).toBe('auth');

    second.receive({ type: 'reply', id: resent[0]?.id, ok: true, data: { status: 'WAITLISTED', waitlistRank: 1, version: 8 } });
    await expect(result).resolves.toMatchObject({ status: 'WAITLISTED' });
    socket.stop();
  });

  it('says the command was never sent when it times out without a connection', async () => {
    const socket = makeSocket({ commandTimeoutMs: 1000 });
    socket.start(); // never opens
    const settled = socket.command({ kind: 'rsvp', eventId: 'e', action: 'ATTENDING' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1000);
    const err = (await settled) as UnknownOutcomeError;
    expect(err).toBeInstanceOf(UnknownOutcomeError);
    expect(err.wasSent).toBe(false);
    socket.stop();
  });
});

describe('LiveSocket identity changes', () => {
  it('reauthenticate opens a new connection whose first frame is the new auth', async () => {
    let token: string | null = null;
    const socket = makeSocket({ getToken: async () => token });
    socket.subscribe('feed');
    socket.start();
    const anon = await openLatest();
    expect(anon.framesOfType('auth')).toHaveLength(0);

    token = 'signed-in-token';
    socket.reauthenticate();
    expect(anon.closedByClient?.code).toBe(4000);
    const authed = await openLatest();
    expect(authed.framesButPings()).toEqual([
      { type: 'auth', token: 'signed-in-token' },
      { type: 'subscribe', topic: 'feed' },
    ]);
    socket.stop();
  });

  it('stop closes the socket, reports offline and does not reconnect', async () => {
    const socket = makeSocket();
    socket.start();
    const ws = await openLatest();
    socket.stop();
    expect(ws.closedByClient?.code).toBe(1000);
    expect(store.get(connectionStateAtom)).toBe('offline');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});

describe('LiveSocket server-ended subscriptions', () => {
  it('resubscribes with since after the server ends a subscription and accepts a fresh auth', async () => {
    const socket = makeSocket({ heartbeatIntervalMs: 10 * 60_000 });
    socket.subscribe('feed');
    socket.start();
    const ws = await openLatest();
    ws.receive({ type: 'authenticated', userId: 'u1' });
    ws.receive({ type: 'snapshot', topic: 'feed', seq: 7, data: [] });
    expect(ws.framesOfType('subscribe')).toHaveLength(1);

    ws.receive({ type: 'unsubscribed', topic: 'feed', error: { code: 'unauthorized', message: 'session expired' } });
    await vi.advanceTimersByTimeAsync(45_000); // the periodic fresh auth
    ws.receive({ type: 'authenticated', userId: 'u1' });
    expect(ws.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'feed' },
      { type: 'subscribe', topic: 'feed', since: 7 },
    ]);
    socket.stop();
  });

  it('keeps a connection that answers pings alive', async () => {
    const socket = makeSocket({ heartbeatIntervalMs: 1000, reauthIntervalMs: 10 * 60_000 });
    socket.start();
    const ws = await openLatest();
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      ws.receive({ type: 'pong' });
    }
    expect(ws.framesOfType('ping')).toHaveLength(SYNC_BURST + 10);
    expect(ws.closedByClient).toBeNull();
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(store.get(connectionStateAtom)).toBe('live');
    socket.stop();
  });
});

describe('LiveSocket time sync', () => {
  it('pings three times 200 ms apart on connect, each with its own id, then every heartbeat', async () => {
    const socket = makeSocket({ heartbeatIntervalMs: 15_000, timeSync: new TimeSync() });
    socket.start();
    const ws = await openLatest();
    expect(ws.framesOfType('ping')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SYNC_BURST_GAP_MS);
    expect(ws.framesOfType('ping')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(SYNC_BURST_GAP_MS);
    expect(ws.framesOfType('ping')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(15_000 - 2 * SYNC_BURST_GAP_MS - 1);
    expect(ws.framesOfType('ping')).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    const ids = ws.framesOfType('ping').map((f) => f.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    socket.stop();
  });

  it('turns a pong that echoes a ping id into the server clock offset', async () => {
    const sync = new TimeSync();
    const socket = makeSocket({ timeSync: sync });
    socket.start();
    const ws = await openLatest();
    const [first] = ws.framesOfType('ping');
    const sentAt = Date.now();
    await vi.advanceTimersByTimeAsync(40); // a 40 ms round trip
    // The server's clock runs 5 s ahead: at the midpoint of the trip it read sentAt + 20 + 5000.
    ws.receive({ type: 'pong', now: sentAt + 20 + 5000, id: first?.id });
    expect(sync.offset).toBe(5000);
    expect(sync.serverNow()).toBe(Date.now() + 5000);
    socket.stop();
  });

  it('ignores pongs without an id, with an unknown id, or from before a reconnect', async () => {
    const sync = new TimeSync();
    const socket = makeSocket({ timeSync: sync });
    socket.start();
    const ws = await openLatest();
    const [first] = ws.framesOfType('ping');
    ws.receive({ type: 'pong', now: Date.now() + 9000 });
    ws.receive({ type: 'pong', now: Date.now() + 9000, id: 'p-nobody' });
    expect(sync.synced).toBe(false);
    ws.drop();
    await vi.advanceTimersByTimeAsync(1000);
    const next = await openLatest();
    // The old connection's ping is forgotten: its pong says nothing about this one.
    next.receive({ type: 'pong', now: Date.now() + 9000, id: first?.id });
    expect(sync.synced).toBe(false);
    socket.stop();
  });
});
