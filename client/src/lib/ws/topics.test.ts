import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atom, createStore, type PrimitiveAtom } from 'jotai';
import { atomFamily } from 'jotai-family';
import { FakeWebSocket } from '../../testing/fake-websocket';
import { makeTestSocket, openLatest } from '../../testing/socket-harness';
import type { LiveSocketOptions } from './socket';
import { foldTopicUpdates, mergeTopicUpdates, releaseWithTopic, topicAtomFamily, type MergeOutcome, type UpdateSeqs } from './topics';

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

describe('LiveSocket folded topics', () => {
  it('folds every update of a folding topic, also one whose seq comes late, and keeps the highest seq', async () => {
    // A list topic whose updates are single entries, like `feed`.
    foldTopicUpdates('pieces', (held, update) => {
      const list = ((held as { ids: string[] } | undefined)?.ids ?? []).concat((update as { id: string }).id);
      return { ids: Array.from(new Set(list)).sort() };
    });
    const socket = makeSocket();
    socket.subscribe('pieces');
    socket.start();
    const ws = await openLatest();
    const atom = topicAtomFamily('pieces');
    ws.receive({ type: 'snapshot', topic: 'pieces', seq: 3, data: { ids: ['a'] } });
    ws.receive({ type: 'update', topic: 'pieces', seq: 5, data: { id: 'c' } });
    ws.receive({ type: 'update', topic: 'pieces', seq: 4, data: { id: 'b' } });
    ws.receive({ type: 'update', topic: 'pieces', seq: 5, data: { id: 'c' } });
    expect(store.get(atom)).toEqual({ seq: 5, data: { ids: ['a', 'b', 'c'] } });
    socket.stop();
  });

});

describe('LiveSocket merged topics', () => {
  // A topic whose updates carry only what changed lately, like `game:`: the
  // update's `from` says which part it starts at; it merges when the held
  // parts reach up to it, else there is a gap.
  interface Parts {
    parts: number[];
  }
  const mergeParts = (held: Parts, update: { from: number; parts: number[] }): MergeOutcome<Parts> => {
    const kept = held.parts.filter((p) => p < update.from);
    if ((held.parts.at(-1) ?? 0) < update.from - 1) return { kind: 'gap' };
    return { kind: 'merged', data: { parts: [...kept, ...update.parts] } };
  };
  mergeTopicUpdates('parts', mergeParts);

  async function followed(overrides: Partial<LiveSocketOptions> = {}) {
    const socket = makeSocket({ heartbeatIntervalMs: 10 * 60_000, reauthIntervalMs: 10 * 60_000, ...overrides });
    socket.subscribe('parts:1');
    socket.start();
    const ws = await openLatest();
    return { socket, ws, atom: topicAtomFamily('parts:1') };
  }

  it('merges each update into what the topic holds and still drops stale ones', async () => {
    const { socket, ws, atom } = await followed();
    const heard: unknown[] = [];
    socket.onUpdate('parts:1', (d) => heard.push(d));
    ws.receive({ type: 'snapshot', topic: 'parts:1', seq: 3, data: { parts: [1, 2, 3] } });
    ws.receive({ type: 'update', topic: 'parts:1', seq: 4, data: { from: 3, parts: [3, 4] } });
    expect(store.get(atom)).toEqual({ seq: 4, data: { parts: [1, 2, 3, 4] } });
    // Late and repeated frames never reach the merge.
    ws.receive({ type: 'update', topic: 'parts:1', seq: 4, data: { from: 1, parts: [9] } });
    ws.receive({ type: 'update', topic: 'parts:1', seq: 2, data: { from: 1, parts: [9] } });
    expect(store.get(atom)).toEqual({ seq: 4, data: { parts: [1, 2, 3, 4] } });
    // Listeners hear the update as it came.
    expect(heard).toEqual([{ from: 3, parts: [3, 4] }]);
    expect(ws.framesOfType('subscribe')).toHaveLength(1);
    socket.stop();
  });

  it('re-subscribes with since = the last seq taken on a gap, keeps what it shows meanwhile, and takes the snapshot', async () => {
    const { socket, ws, atom } = await followed();
    const heard: unknown[] = [];
    socket.onUpdate('parts:1', (d) => heard.push(d));
    ws.receive({ type: 'snapshot', topic: 'parts:1', seq: 3, data: { parts: [1, 2, 3] } });
    ws.receive({ type: 'update', topic: 'parts:1', seq: 4, data: { from: 4, parts: [4] } });

    ws.receive({ type: 'update', topic: 'parts:1', seq: 9, data: { from: 8, parts: [8, 9] } });
    expect(ws.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'parts:1' },
      { type: 'subscribe', topic: 'parts:1', since: 4 },
    ]);
    expect(store.get(atom)).toEqual({ seq: 4, data: { parts: [1, 2, 3, 4] } });
    expect(heard).toEqual([{ from: 4, parts: [4] }]);

    // More frames the held state cannot take, while the snapshot is on its way: no second ask.
    ws.receive({ type: 'update', topic: 'parts:1', seq: 10, data: { from: 9, parts: [9, 10] } });
    expect(ws.framesOfType('subscribe')).toHaveLength(2);

    ws.receive({ type: 'snapshot', topic: 'parts:1', seq: 10, data: { parts: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } });
    ws.receive({ type: 'update', topic: 'parts:1', seq: 11, data: { from: 10, parts: [10, 11] } });
    expect(store.get(atom)).toEqual({ seq: 11, data: { parts: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } });
    expect(ws.framesOfType('subscribe')).toHaveLength(2);
    socket.stop();
  });

  it('asks again for a snapshot that did not come, but not before the retry time', async () => {
    const { socket, ws } = await followed({ snapshotRetryMs: 5000 });
    ws.receive({ type: 'snapshot', topic: 'parts:1', seq: 3, data: { parts: [1, 2, 3] } });
    ws.receive({ type: 'update', topic: 'parts:1', seq: 7, data: { from: 7, parts: [7] } });
    expect(ws.framesOfType('subscribe')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(4999);
    ws.receive({ type: 'update', topic: 'parts:1', seq: 8, data: { from: 7, parts: [7, 8] } });
    expect(ws.framesOfType('subscribe')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    ws.receive({ type: 'update', topic: 'parts:1', seq: 9, data: { from: 7, parts: [7, 8, 9] } });
    expect(ws.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'parts:1' },
      { type: 'subscribe', topic: 'parts:1', since: 3 },
      { type: 'subscribe', topic: 'parts:1', since: 3 },
    ]);
    socket.stop();
  });

  it('treats an update its merge cannot read as a gap', async () => {
    const { socket, ws, atom } = await followed();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    ws.receive({ type: 'snapshot', topic: 'parts:1', seq: 3, data: { parts: [1, 2, 3] } });
    ws.receive({ type: 'update', topic: 'parts:1', seq: 4, data: null });
    expect(store.get(atom)).toEqual({ seq: 3, data: { parts: [1, 2, 3] } });
    expect(ws.framesOfType('subscribe')).toHaveLength(2);
    expect(warn).toHaveBeenCalled();
    socket.stop();
  });

  it('hands a merge the seq it holds and the update\'s, so a topic counted one by one can see a skipped number', async () => {
    // A topic whose seq is a version (+1 per change): the data cannot show a gap, the seqs do.
    const seen: UpdateSeqs[] = [];
    mergeTopicUpdates('counted', (held: { n: number }, update: { n: number }, seqs: UpdateSeqs): MergeOutcome<{ n: number }> => {
      seen.push(seqs);
      return seqs.held !== null && seqs.update > seqs.held + 1 ? { kind: 'gap' } : { kind: 'merged', data: { n: held.n + update.n } };
    });
    const socket = makeSocket({ heartbeatIntervalMs: 10 * 60_000, reauthIntervalMs: 10 * 60_000 });
    socket.subscribe('counted:1');
    socket.start();
    const ws = await openLatest();
    const atom = topicAtomFamily('counted:1');
    ws.receive({ type: 'snapshot', topic: 'counted:1', seq: 5, data: { n: 0 } });
    ws.receive({ type: 'update', topic: 'counted:1', seq: 6, data: { n: 1 } });
    ws.receive({ type: 'update', topic: 'counted:1', seq: 8, data: { n: 1 } });
    expect(seen).toEqual([
      { held: 5, update: 6 },
      { held: 6, update: 8 },
    ]);
    expect(store.get(atom)).toEqual({ seq: 6, data: { n: 1 } });
    expect(ws.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'counted:1' },
      { type: 'subscribe', topic: 'counted:1', since: 6 },
    ]);
    socket.stop();
  });

  it('does not take an update before the first snapshot, nor ask twice for that snapshot', async () => {
    const { socket, ws, atom } = await followed();
    ws.receive({ type: 'update', topic: 'parts:1', seq: 2, data: { from: 1, parts: [1, 2] } });
    expect(store.get(atom)).toBeNull();
    expect(ws.framesOfType('subscribe')).toEqual([{ type: 'subscribe', topic: 'parts:1' }]);
    socket.stop();
  });

  it('resubscribe sends a subscribe with the given since, only for a followed topic', async () => {
    const { socket, ws } = await followed();
    ws.receive({ type: 'snapshot', topic: 'parts:1', seq: 6, data: { parts: [] } });
    expect(socket.resubscribe('parts:1')).toBe(true);
    expect(socket.resubscribe('parts:1', 2)).toBe(true);
    expect(socket.resubscribe('parts:404')).toBe(false);
    expect(ws.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'parts:1' },
      { type: 'subscribe', topic: 'parts:1', since: 6 },
      { type: 'subscribe', topic: 'parts:1', since: 2 },
    ]);
    expect(socket.refCount('parts:1')).toBe(1);
    socket.stop();
  });
});

describe('LiveSocket releasing topics', () => {
  const params = <P>(family: { getParams(): Iterable<P> }) => Array.from(family.getParams());

  it("removes the topic's atom-family entry once the topic is released", async () => {
    const socket = makeSocket();
    const release = socket.subscribe('game:7');
    socket.start();
    const ws = await openLatest();
    const held = topicAtomFamily('game:7');
    ws.receive({ type: 'snapshot', topic: 'game:7', seq: 3, data: { homeScore: 1 } });
    expect(store.get(held)).toEqual({ seq: 3, data: { homeScore: 1 } });
    expect(params(topicAtomFamily)).toContain('game:7');

    release();
    expect(params(topicAtomFamily)).not.toContain('game:7');
    // A later reader starts from nothing, not from what the old subscription saw.
    expect(topicAtomFamily('game:7')).not.toBe(held);
    expect(store.get(topicAtomFamily('game:7'))).toBeNull();
    socket.stop();
  });

  it('keeps the entry while the topic lingers, and for good if it is taken up again', async () => {
    const socket = makeSocket({ unsubscribeLingerMs: 2000 });
    const first = socket.subscribe('season:2');
    socket.start();
    await openLatest();
    const held = topicAtomFamily('season:2');

    first();
    await vi.advanceTimersByTimeAsync(1000);
    expect(params(topicAtomFamily)).toContain('season:2');
    const second = socket.subscribe('season:2');
    await vi.advanceTimersByTimeAsync(5000);
    expect(topicAtomFamily('season:2')).toBe(held);

    second();
    await vi.advanceTimersByTimeAsync(1999);
    expect(params(topicAtomFamily)).toContain('season:2');
    await vi.advanceTimersByTimeAsync(1);
    expect(params(topicAtomFamily)).not.toContain('season:2');
    socket.stop();
  });

  it("removes a feature family's entry with its topic, unless `keep` spares it", async () => {
    const derived = atomFamily((id: string) => atom((get) => get(topicAtomFamily(`thing:${id}`))?.seq ?? null));
    const flights = atomFamily<string, PrimitiveAtom<'idle' | 'sending'>>(() => atom<'idle' | 'sending'>('idle'));
    releaseWithTopic('thing', derived);
    releaseWithTopic('thing', flights, (phase) => phase === 'sending');
    const socket = makeSocket();
    socket.start();
    await openLatest();

    const a = socket.subscribe('thing:a');
    const b = socket.subscribe('thing:b');
    store.get(derived('a'));
    store.get(derived('b'));
    store.get(flights('a'));
    store.set(flights('b'), 'sending');
    const other = socket.subscribe('other:a');

    a();
    expect(params(derived)).toEqual(['b']);
    expect(params(flights)).toEqual(['b']);
    b();
    expect(params(derived)).toEqual([]);
    // Still in flight: it stays (a later release of the topic takes it).
    expect(params(flights)).toEqual(['b']);
    other();
    expect(params(flights)).toEqual(['b']);
    socket.stop();
  });
});
