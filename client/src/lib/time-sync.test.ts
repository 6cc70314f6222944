import { describe, expect, it } from 'vitest';
import { bestSample, sampleOffset, SAMPLE_WINDOW, TimeSync, type SyncSample } from './time-sync';

const sample = (sent: number, rtt: number, offset: number): SyncSample => ({ sent, received: sent + rtt, serverNow: sent + rtt / 2 + offset });

describe('sampleOffset', () => {
  it('assumes the server answered halfway through the round trip', () => {
    expect(sampleOffset({ sent: 1000, received: 1100, serverNow: 51_050 })).toBe(50_000);
    expect(sampleOffset({ sent: 1000, received: 1000, serverNow: 400 })).toBe(-600);
  });
});

describe('bestSample', () => {
  it('picks the shortest round trip, the newest of equals', () => {
    const a = sample(0, 80, 1);
    const b = sample(100, 20, 2);
    const c = sample(200, 20, 3);
    expect(bestSample([a, b, c])).toBe(c);
    expect(bestSample([])).toBeNull();
  });
});

describe('TimeSync', () => {
  it('uses the shortest round trip of the last eight samples', () => {
    let local = 0;
    const sync = new TimeSync(() => local);
    sync.addSample(sample(0, 10, 700)); // the best, for now
    for (let i = 1; i < SAMPLE_WINDOW; i++) sync.addSample(sample(i * 1000, 100 + i, 650));
    expect(sync.offset).toBe(700);
    // A ninth sample pushes the 10 ms one out of the window.
    sync.addSample(sample(9000, 120, 640));
    expect(sync.offset).toBe(650);
    local = 123_456;
    expect(sync.serverNow()).toBe(123_456 + 650);
    expect(sync.uncertaintyMs).toBe(50.5);
  });

  it('is within half the best round trip of the truth, whatever the asymmetry of the samples', () => {
    // Table: true offset, [outbound, inbound] delays of each sample.
    const cases: Array<[number, Array<[number, number]>]> = [
      [0, [[5, 5]]],
      [3_600_000, [[40, 2], [3, 60], [12, 12]]],
      [-250, [[1, 90], [25, 1], [30, 31], [2, 3]]],
      [17, Array.from({ length: 12 }, (_, i): [number, number] => [i * 7 + 1, 100 - i * 8])],
    ];
    for (const [truth, delays] of cases) {
      const sync = new TimeSync(() => 0);
      let t = 10_000;
      let bestRtt = Infinity;
      delays.forEach(([out, back], i) => {
        const sent = t;
        const serverNow = sent + out + truth;
        sync.addSample({ sent, received: sent + out + back, serverNow });
        if (i >= delays.length - SAMPLE_WINDOW) bestRtt = Math.min(bestRtt, out + back);
        t += 15_000;
      });
      expect(Math.abs(sync.offset - truth)).toBeLessThanOrEqual(bestRtt / 2 + 0.5);
    }
  });

  it('ignores samples that cannot be right, and tells listeners when the offset moves', () => {
    const sync = new TimeSync(() => 0);
    let calls = 0;
    const stop = sync.subscribe(() => (calls += 1));
    sync.addSample({ sent: 100, received: 50, serverNow: 9 }); // received before sent
    sync.addSample({ sent: 0, received: 60_000, serverNow: 9 }); // a tab that slept
    sync.addSample({ sent: 0, received: 10, serverNow: Number.NaN });
    expect(sync.synced).toBe(false);
    sync.addSample(sample(0, 10, 300));
    sync.addSample(sample(100, 50, 300)); // same offset: no news
    expect(calls).toBe(1);
    stop();
    sync.addSample(sample(200, 2, 900));
    expect(calls).toBe(1);
    expect(sync.offset).toBe(900);
  });
});
