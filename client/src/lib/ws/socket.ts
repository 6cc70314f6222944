// The tab's one WebSocket to `/api/v1/ws` (CONTRACT.md › WebSocket).
//
// It owns: authenticating first (and again with a fresh token before Clerk's
// 60 s tokens expire), ref-counted topic subscriptions, reconnecting with
// jittered exponential backoff, resubscribing with `since` after a reconnect
// (or when a topic's merge finds it missed something), dropping stale
// updates, and commands whose promise settles with the server's `reply`.
// What a topic holds lands in topics.ts's atoms; the connection's state in
// `connectionStateAtom`. Its pings double as the tab's time sync: each
// carries an id, and the pong's server time feeds lib/time-sync.ts (three
// quick pings on connect, so a clock is right within a second of opening).

import { atom, getDefaultStore } from 'jotai';
import { randomId } from '../random-id';
import { timeSync as defaultTimeSync, type TimeSync } from '../time-sync';
import { CommandRejectedError, OPEN, UnknownOutcomeError, type CommandBody, type ServerFrame, type WebSocketLike } from './protocol';
import { forgetTopic, topicAtomFamily, topicFold, topicMerge, type JotaiStore, type MergeOutcome } from './topics';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline';

/** Pings sent right after a connection opens, to sync the clock at once (docs/game-night.md › Time sync). */
export const SYNC_BURST = 3;
/** The gap between the burst's pings. */
export const SYNC_BURST_GAP_MS = 200;
/** Pings waiting for their pong, at most (older ones are forgotten: their pong is too late to be useful). */
const MAX_PINGS_IN_FLIGHT = 16;

export const connectionStateAtom = atom<ConnectionState>('connecting');

export interface LiveSocketOptions {
  url: string;
  /** A fresh token per call (Clerk tokens live 60 s), or null when signed out. */
  getToken: () => Promise<string | null>;
  createSocket?: (url: string) => WebSocketLike;
  store?: JotaiStore;
  /** How long a command may wait for its reply before it is UnknownOutcome. */
  commandTimeoutMs?: number;
  /** Re-send `auth` this often; comfortably inside Clerk's 60 s token life. */
  reauthIntervalMs?: number;
  /** Ping this often (also the time sync's period); a connection silent for 2.5 intervals is presumed dead. */
  heartbeatIntervalMs?: number;
  /** Where pong round trips go (the tab's one estimate by default). */
  timeSync?: TimeSync;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A connection open this long resets the backoff. */
  stableAfterMs?: number;
  /** Keep a subscription this long after its last user leaves (route hops). */
  unsubscribeLingerMs?: number;
  /**
   * A merge that finds a gap while a subscribe is still unanswered asks
   * again only after this long: the snapshot is normally on its way, but a
   * refused subscribe must not leave the topic stuck until a reconnect.
   */
  snapshotRetryMs?: number;
  random?: () => number;
  isOnline?: () => boolean;
}

interface TopicEntry {
  refs: number;
  /** False after the server ended it (`unsubscribed`, e.g. an expired token). */
  active: boolean;
  /** Highest seq seen; null before the first frame. Used for `since` and stale drops. */
  seq: number | null;
  /** When the last subscribe frame went out, until its snapshot arrives (null: none awaited). */
  snapshotAskedAt: number | null;
  lingerTimer: ReturnType<typeof setTimeout> | null;
}

interface PendingCommand {
  frame: string;
  sent: boolean;
  resolve: (data: unknown) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

function newCommandId(): string {
  return randomId('c');
}

export function defaultSocketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/v1/ws`;
}

export class LiveSocket {
  private readonly opts: Required<Omit<LiveSocketOptions, 'store'>> & { store: JotaiStore };
  private ws: WebSocketLike | null = null;
  /** Bumped per socket so callbacks of a replaced socket are ignored. */
  private generation = 0;
  /** True once `auth` (if any) went out; only then may other frames follow. */
  private ready = false;
  private running = false;
  private everLive = false;
  private attempt = 0;
  private lastFrameAt = 0;
  private readonly topics = new Map<string, TopicEntry>();
  private readonly pending = new Map<string, PendingCommand>();
  /** topic → who wants each of its updates as it arrives (`onUpdate`). */
  private readonly updateListeners = new Map<string, Set<(data: unknown) => void>>();
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private stableTimer: ReturnType<typeof setTimeout> | null = null;
  private reauthTimer: ReturnType<typeof setInterval> | null = null;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private burstTimers: ReturnType<typeof setTimeout>[] = [];
  /** Ping id → local epoch ms it left, until its pong comes. */
  private readonly pings = new Map<string, number>();
  private readonly onOnline = () => {
    if (this.running && !this.ws) this.connectNow();
  };
  private readonly onOffline = () => {
    if (this.running && !this.ws) this.setState('offline');
  };

  constructor(options: LiveSocketOptions) {
    this.opts = {
      createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
      commandTimeoutMs: 10_000,
      reauthIntervalMs: 45_000,
      heartbeatIntervalMs: 15_000,
      timeSync: defaultTimeSync,
      backoffBaseMs: 500,
      backoffMaxMs: 30_000,
      stableAfterMs: 5_000,
      unsubscribeLingerMs: 2_000,
      snapshotRetryMs: 10_000,
      random: Math.random,
      isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
      ...options,
      store: options.store ?? getDefaultStore(),
    };
  }

  get state(): ConnectionState {
    return this.opts.store.get(connectionStateAtom);
  }

  /** Where tokens come from from now on (the auth module's getter may be replaced). */
  setTokenSource(getToken: () => Promise<string | null>): void {
    this.opts.getToken = getToken;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('offline', this.onOffline);
    }
    this.setState('connecting');
    this.connectNow();
  }

  /** Close for good (sign-out, unmount). Pending commands end as unknown outcome. */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
    }
    this.clearTimers();
    this.dropSocket(1000, 'client stopped');
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new UnknownOutcomeError(id, p.sent));
    }
    this.pending.clear();
    this.setState('offline');
  }

  /**
   * The identity changed (sign-in or sign-out): start a new connection so its
   * first frame is the right `auth`. Subscriptions carry over with `since`.
   */
  reauthenticate(): void {
    if (!this.running) return;
    this.dropSocket(4000, 'reauthenticate');
    this.clearTimers();
    this.attempt = 0;
    this.setState(this.everLive ? 'reconnecting' : 'connecting');
    this.connectNow();
  }

  /** Subscribe to a topic; call the returned function to release it. */
  subscribe(topic: string): () => void {
    let entry = this.topics.get(topic);
    if (entry) {
      entry.refs += 1;
      if (entry.lingerTimer) {
        clearTimeout(entry.lingerTimer);
        entry.lingerTimer = null;
      }
    } else {
      entry = { refs: 1, active: true, seq: null, snapshotAskedAt: null, lingerTimer: null };
      this.topics.set(topic, entry);
      this.sendSubscribe(topic, entry);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(topic);
    };
  }

  /**
   * Ask the server again for a topic this socket follows, with `since`
   * (default: the last seq taken). The server answers with a fresh snapshot,
   * which replaces what the topic holds: for a topic whose state no longer
   * adds up (a merge found a gap). Returns false when the topic is not
   * followed, or the server ended it (the next `authenticated` re-subscribes
   * it); while disconnected, the frame goes out on the next open.
   */
  resubscribe(topic: string, since?: number): boolean {
    const entry = this.topics.get(topic);
    if (!entry || !entry.active) return false;
    this.sendSubscribe(topic, entry, since);
    return true;
  }

  /**
   * Hand the data of every `update` of `topic` that is taken (not a stale
   * one, not a snapshot) to `listener`, until the returned function is
   * called. For screens that react to a kind of push rather than show the
   * topic's state (the event page re-reads its event when my feed says it
   * changed). It does not subscribe: pair it with `subscribe`.
   */
  onUpdate(topic: string, listener: (data: unknown) => void): () => void {
    let set = this.updateListeners.get(topic);
    if (!set) {
      set = new Set();
      this.updateListeners.set(topic, set);
    }
    set.add(listener);
    return () => {
      const held = this.updateListeners.get(topic);
      if (!held) return;
      held.delete(listener);
      if (held.size === 0) this.updateListeners.delete(topic);
    };
  }

  private notifyUpdate(topic: string, data: unknown): void {
    const set = this.updateListeners.get(topic);
    if (!set) return;
    for (const listener of Array.from(set)) {
      try {
        listener(data);
      } catch (err) {
        console.warn('[ws] update listener failed', err);
      }
    }
  }

  /** Current ref-count of a topic (0 when not subscribed). */
  refCount(topic: string): number {
    return this.topics.get(topic)?.refs ?? 0;
  }

  /**
   * Send a command. Resolves with the reply's `data`, rejects with
   * CommandRejectedError on `ok:false`, or UnknownOutcomeError on timeout.
   * A command interrupted by a reconnect is re-sent with the same id, which
   * the server answers with the first reply, so it is never applied twice.
   * `id` is the command's idempotency key when the caller keeps one across
   * retries (the same key a REST retry would send); by default a fresh one.
   */
  command<T = unknown, C extends CommandBody = CommandBody>(command: C, timeoutMs = this.opts.commandTimeoutMs, id: string = newCommandId()): Promise<T> {
    const frame = JSON.stringify({ type: 'command', id, command });
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const p = this.pending.get(id);
        this.pending.delete(id);
        reject(new UnknownOutcomeError(id, p?.sent ?? false));
      }, timeoutMs);
      const p: PendingCommand = {
        frame,
        sent: false,
        resolve: resolve as (data: unknown) => void,
        reject,
        timer,
      };
      this.pending.set(id, p);
      if (this.ready) this.sendPending(p);
    });
  }

  // ── connection lifecycle ────────────────────────────────────────────────

  private connectNow(): void {
    if (!this.running) return;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    const gen = ++this.generation;
    this.ready = false;
    let ws: WebSocketLike;
    try {
      ws = this.opts.createSocket(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (gen === this.generation) void this.handleOpen(gen);
    };
    ws.onmessage = (ev) => {
      if (gen === this.generation) this.handleMessage(ev.data);
    };
    ws.onclose = () => {
      if (gen === this.generation) this.handleClose();
    };
    // Errors are always followed by close; close decides what to do.
    ws.onerror = () => {};
  }

  private async handleOpen(gen: number): Promise<void> {
    let token: string | null;
    try {
      token = await this.opts.getToken();
    } catch {
      token = null;
    }
    const ws = this.ws;
    if (gen !== this.generation || !ws || ws.readyState !== OPEN) return;
    if (token) ws.send(JSON.stringify({ type: 'auth', token }));
    this.ready = true;
    this.lastFrameAt = Date.now();
    for (const [topic, entry] of this.topics) this.sendSubscribe(topic, entry);
    for (const p of this.pending.values()) this.sendPending(p);
    this.everLive = true;
    this.setState('live');
    this.startTimers();
  }

  private handleClose(): void {
    this.ws = null;
    this.ready = false;
    this.clearTimers();
    if (!this.running) return;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.running) return;
    if (!this.opts.isOnline()) {
      // Wait for the browser's `online` event, but also keep probing slowly
      // in case the event never comes.
      this.setState('offline');
    } else {
      this.setState(this.everLive || this.attempt > 0 ? 'reconnecting' : 'connecting');
    }
    const cap = Math.min(this.opts.backoffMaxMs, this.opts.backoffBaseMs * 2 ** this.attempt);
    // "Equal jitter": at least half the cap so a herd of tabs never retries at once
    // nor all too early after a server restart.
    const delay = Math.round(cap / 2 + (cap / 2) * this.opts.random());
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connectNow();
    }, delay);
  }

  private startTimers(): void {
    this.clearTimers();
    this.stableTimer = setTimeout(() => {
      this.attempt = 0;
    }, this.opts.stableAfterMs);
    this.reauthTimer = setInterval(() => void this.sendAuth(), this.opts.reauthIntervalMs);
    this.heartbeatTimer = setInterval(() => {
      if (!this.ready) return;
      if (Date.now() - this.lastFrameAt > this.opts.heartbeatIntervalMs * 2.5) {
        // Half-open connection: nothing heard for too long. Start over.
        this.dropSocket(4001, 'heartbeat timeout');
        this.handleClose();
        return;
      }
      this.sendPing();
    }, this.opts.heartbeatIntervalMs);
    for (let i = 0; i < SYNC_BURST; i++) {
      this.burstTimers.push(setTimeout(() => this.sendPing(), i * SYNC_BURST_GAP_MS));
    }
  }

  /** A ping with an id, remembered so its pong gives a time sample. */
  private sendPing(): void {
    if (!this.ready) return;
    const id = randomId('p');
    this.pings.set(id, Date.now());
    while (this.pings.size > MAX_PINGS_IN_FLIGHT) {
      const oldest = this.pings.keys().next().value;
      if (oldest === undefined) break;
      this.pings.delete(oldest);
    }
    this.send({ type: 'ping', id });
  }

  private handlePong(frame: { now?: number; id?: string }): void {
    if (frame.id === undefined) return;
    const sent = this.pings.get(frame.id);
    if (sent === undefined) return;
    this.pings.delete(frame.id);
    if (typeof frame.now === 'number') this.opts.timeSync.addSample({ sent, received: Date.now(), serverNow: frame.now });
  }

  private clearTimers(): void {
    if (this.stableTimer) clearTimeout(this.stableTimer);
    if (this.reauthTimer) clearInterval(this.reauthTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    for (const t of this.burstTimers) clearTimeout(t);
    this.burstTimers = [];
    // A pong of the old connection would pair with a ping of nobody.
    this.pings.clear();
    this.stableTimer = this.reauthTimer = this.heartbeatTimer = this.reconnectTimer = null;
  }

  private dropSocket(code: number, reason: string): void {
    const ws = this.ws;
    this.generation += 1; // silence the old socket's callbacks
    this.ws = null;
    this.ready = false;
    if (ws) {
      try {
        ws.close(code, reason);
      } catch {
        // Already closing; nothing to do.
      }
    }
  }

  private async sendAuth(): Promise<void> {
    const gen = this.generation;
    let token: string | null;
    try {
      token = await this.opts.getToken();
    } catch {
      return;
    }
    if (token && gen === this.generation && this.ready) this.send({ type: 'auth', token });
  }

  // ── frames ──────────────────────────────────────────────────────────────

  private send(frame: object): void {
    if (this.ws && this.ready && this.ws.readyState === OPEN) this.ws.send(JSON.stringify(frame));
  }

  private sendSubscribe(topic: string, entry: TopicEntry, since: number | null = entry.seq): void {
    entry.active = true;
    if (!this.ready) return; // sent on open
    const frame: { type: 'subscribe'; topic: string; since?: number } = { type: 'subscribe', topic };
    if (since !== null) frame.since = since;
    this.send(frame);
    entry.snapshotAskedAt = Date.now();
  }

  /** A merge found a gap: ask for a snapshot, unless one was asked for just now. */
  private askSnapshot(topic: string, entry: TopicEntry): void {
    if (entry.snapshotAskedAt !== null && Date.now() - entry.snapshotAskedAt < this.opts.snapshotRetryMs) return;
    this.resubscribe(topic);
  }

  private sendPending(p: PendingCommand): void {
    if (this.ws && this.ready && this.ws.readyState === OPEN) {
      this.ws.send(p.frame);
      p.sent = true;
    }
  }

  private release(topic: string): void {
    const entry = this.topics.get(topic);
    if (!entry) return;
    entry.refs -= 1;
    if (entry.refs > 0) return;
    const finish = () => {
      const current = this.topics.get(topic);
      if (!current || current.refs > 0) return;
      this.topics.delete(topic);
      this.send({ type: 'unsubscribe', topic });
      forgetTopic(topic, this.opts.store);
    };
    if (this.opts.unsubscribeLingerMs <= 0) finish();
    else entry.lingerTimer = setTimeout(finish, this.opts.unsubscribeLingerMs);
  }

  private handleMessage(raw: unknown): void {
    this.lastFrameAt = Date.now();
    if (typeof raw !== 'string') return;
    let frame: ServerFrame;
    try {
      frame = JSON.parse(raw) as ServerFrame;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'snapshot': {
        const entry = this.topics.get(frame.topic);
        if (!entry) return; // unsubscribed meanwhile
        // A snapshot is the whole state: it replaces whatever we had.
        entry.seq = frame.seq;
        entry.snapshotAskedAt = null;
        this.opts.store.set(topicAtomFamily(frame.topic), { seq: frame.seq, data: frame.data });
        return;
      }
      case 'update': {
        const entry = this.topics.get(frame.topic);
        if (!entry) return;
        const fold = topicFold(frame.topic);
        if (fold) {
          const held = this.opts.store.get(topicAtomFamily(frame.topic));
          entry.seq = Math.max(entry.seq ?? 0, frame.seq);
          this.opts.store.set(topicAtomFamily(frame.topic), { seq: entry.seq, data: fold(held?.data, frame.data) });
          this.notifyUpdate(frame.topic, frame.data);
          return;
        }
        if (entry.seq !== null && frame.seq <= entry.seq) return; // stale or duplicate
        let data: unknown = frame.data;
        const merge = topicMerge(frame.topic);
        if (merge) {
          // Nothing held yet (the snapshot is still on its way) is a gap too:
          // a partial update cannot stand on its own.
          const held = this.opts.store.get(topicAtomFamily(frame.topic));
          let outcome: MergeOutcome = { kind: 'gap' };
          try {
            if (held) outcome = merge(held.data, frame.data, { held: entry.seq, update: frame.seq });
          } catch (err) {
            // A frame the merge cannot read: the snapshot will be whole.
            console.warn('[ws] update could not be merged', frame.topic, err);
          }
          if (outcome.kind === 'gap') {
            this.askSnapshot(frame.topic, entry);
            return;
          }
          data = outcome.data;
        }
        entry.seq = frame.seq;
        this.opts.store.set(topicAtomFamily(frame.topic), { seq: frame.seq, data });
        this.notifyUpdate(frame.topic, frame.data);
        return;
      }
      case 'reply': {
        const p = this.pending.get(frame.id);
        if (!p) return; // already timed out, or a duplicate
        this.pending.delete(frame.id);
        clearTimeout(p.timer);
        if (frame.ok) p.resolve(frame.data);
        else p.reject(new CommandRejectedError(frame.error.code, frame.error.message));
        return;
      }
      case 'unsubscribed': {
        // The server ended it (typically a token that expired before our
        // refresh got through). Resubscribe once it accepts our next auth.
        const entry = this.topics.get(frame.topic);
        if (entry) entry.active = false;
        return;
      }
      case 'authenticated':
        for (const [topic, entry] of this.topics) if (!entry.active) this.sendSubscribe(topic, entry);
        return;
      case 'error':
        console.warn('[ws] server error', frame.error);
        return;
      case 'pong':
        this.handlePong(frame);
        return;
      default:
        return;
    }
  }

  private setState(state: ConnectionState): void {
    if (this.opts.store.get(connectionStateAtom) !== state) this.opts.store.set(connectionStateAtom, state);
  }
}
