// The game clock, live: re-renders on every animation frame while the
// clock runs (and not at all while it is stopped), reading the server's
// now from the tab's time sync. Components that use it should be small —
// the clock face, a penalty box — so a frame re-renders only them.

import { useEffect, useReducer, useSyncExternalStore } from 'react';
import type { GameClock } from './api-types';
import { gameTimeMs, timeLeftMs } from './game-clock';
import { timeSync } from './time-sync';

export interface LiveClock {
  /** Time left in the period (or break) now. */
  leftMs: number;
  /** Game time now (penalties run on it). */
  gameMs: number;
  running: boolean;
  /** The server instant this reading is for (the tab's estimate). */
  serverNow: number;
  /** Local epoch ms of this reading (tests compare screens with it). */
  sampledAt: number;
}

const subscribeOffset = (cb: () => void) => timeSync.subscribe(cb);
const readOffset = () => timeSync.offset;

/** The clock now; null while there is none. */
export function useGameClock(clock: GameClock | null | undefined): LiveClock | null {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  // A better time sample moves every screen's clock at once.
  useSyncExternalStore(subscribeOffset, readOffset, readOffset);
  const running = Boolean(clock?.running);

  useEffect(() => {
    if (!running) return undefined;
    let frame = requestAnimationFrame(function loop() {
      tick();
      frame = requestAnimationFrame(loop);
    });
    return () => cancelAnimationFrame(frame);
  }, [running]);

  if (!clock) return null;
  const sampledAt = Date.now();
  const now = sampledAt + timeSync.offset;
  return { leftMs: timeLeftMs(clock, now), gameMs: gameTimeMs(clock, now), running: clock.running, serverNow: now, sampledAt };
}
