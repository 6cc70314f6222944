// The server's clock as this tab estimates it (docs/game-night.md › Time
// sync). Game clocks are state, not ticks: a message says "734 120 ms left
// at server instant T", and every screen draws the time left from its own
// estimate of the server's now. Two arena screens agree to the frame only
// if both estimate that now well, so the estimate takes care:
//
// - Each ping carries an id; its pong echoes it with the server's epoch ms
//   at the answer. Assuming the answer came halfway through the round trip,
//   offset = now − (sent + received) / 2.
// - A sample is only as good as its round trip is short (the error is at
//   most half of it), so of the last `SAMPLE_WINDOW` samples the one with
//   the shortest round trip wins. Keeping a window (not the best ever)
//   follows the device clock if it is adjusted (NTP step, sleep).
//
// One socket per tab, so one estimate per tab: `timeSync` is module-level
// and `serverNow()` reads it anywhere (the game clock hook, the console's
// CLOCK_STOP `at`).

/** How many of the newest samples the estimate chooses from. */
export const SAMPLE_WINDOW = 8;

/** A round trip longer than this says nothing useful (a tab that slept, a stalled socket). */
const MAX_ROUND_TRIP_MS = 30_000;

export interface SyncSample {
  /** Local epoch ms the ping left. */
  sent: number;
  /** Local epoch ms the pong arrived. */
  received: number;
  /** The server's epoch ms in the pong. */
  serverNow: number;
}

/** The sample's estimate of server − local time. */
export function sampleOffset(s: SyncSample): number {
  return s.serverNow - (s.sent + s.received) / 2;
}

/** The sample with the shortest round trip (the newest of equals), or null. */
export function bestSample(samples: readonly SyncSample[]): SyncSample | null {
  let best: SyncSample | null = null;
  for (const s of samples) {
    if (!best || s.received - s.sent <= best.received - best.sent) best = s;
  }
  return best;
}

export class TimeSync {
  private samples: SyncSample[] = [];
  private offsetMs = 0;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Take one ping/pong: it joins the window, and the best of the window sets the offset. */
  addSample(sample: SyncSample): void {
    const rtt = sample.received - sample.sent;
    if (!Number.isFinite(sample.serverNow) || rtt < 0 || rtt > MAX_ROUND_TRIP_MS) return;
    this.samples = [...this.samples, sample].slice(-SAMPLE_WINDOW);
    const best = bestSample(this.samples);
    const next = best ? Math.round(sampleOffset(best)) : 0;
    if (next === this.offsetMs) return;
    this.offsetMs = next;
    for (const l of this.listeners) l();
  }

  /** Server − local, in ms (0 before the first sample). */
  get offset(): number {
    return this.offsetMs;
  }

  /** The round trip of the sample in use (null before the first): how far to trust the offset. */
  get uncertaintyMs(): number | null {
    const best = bestSample(this.samples);
    return best ? (best.received - best.sent) / 2 : null;
  }

  /** Has a pong come yet. */
  get synced(): boolean {
    return this.samples.length > 0;
  }

  /** The server's epoch ms now, as estimated. */
  serverNow(): number {
    return this.now() + this.offsetMs;
  }

  /** Called whenever the offset moves. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Forget every sample (tests). */
  reset(): void {
    this.samples = [];
    this.offsetMs = 0;
  }
}

/** The tab's estimate, fed by lib/ws/socket.ts. */
export const timeSync = new TimeSync();

/** The server's epoch ms now, as this tab estimates it. */
export function serverNow(): number {
  return timeSync.serverNow();
}
