// Clock arithmetic for every game screen (docs/game-night.md › The clock).
// Pure: the server sends what was left at an instant and whether the
// clock runs since; these turn that and the tab's estimate of the
// server's now (lib/time-sync.ts) into the time left, the game time that
// penalties run on, and the figures arenas show.

import type { GameClock, GamePeriod } from './api-types';

/** Time left in the period (or break) at server instant `now`: never below 0, never above what was left. */
export function timeLeftMs(clock: GameClock, now: number): number {
  if (!clock.running) return Math.max(0, clock.remainingMs);
  return Math.max(0, clock.remainingMs - Math.max(0, now - clock.at));
}

/**
 * Game time at `now` — the time played since the opening face-off, periods
 * counted at their full length. During an intermission it stays at the
 * start of the period to come.
 */
export function gameTimeMs(clock: GameClock, now: number): number {
  if (clock.phase === 'INTERMISSION') return clock.offsetMs;
  return clock.offsetMs + clock.periodMs - timeLeftMs(clock, now);
}

/** Game time when an entry of the current period happened with `clockMs` left. */
export function gameTimeWith(clock: Pick<GameClock, 'offsetMs' | 'periodMs'>, clockMs: number): number {
  return clock.offsetMs + clock.periodMs - clockMs;
}

/**
 * The time as an arena clock shows it: "12:34" from a minute up, "45.3"
 * (seconds and tenths) below. Rounded up, as a countdown is, so a fresh
 * period reads 20:00 and 0:00 / 0.0 only when nothing is left; the switch
 * to tenths comes when they would read below 60.0.
 */
export function formatClock(ms: number): string {
  const left = Math.max(0, ms);
  const tenths = Math.ceil(left / 100);
  if (tenths < 600) return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  return formatMinutes(left);
}

/** Always "M:SS" (rounded up): penalty countdowns and the clock times on a scoresheet. */
export function formatMinutes(ms: number): string {
  const secs = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/** Whether the clock is at zero in play: the period's time is up (the horn is the score keeper's END_PERIOD). */
export function isTimeUp(clock: GameClock, now: number): boolean {
  return clock.phase === 'PLAY' && timeLeftMs(clock, now) === 0;
}

/** The period a game's clock belongs to, for labels ("2nd", "OT"); a shootout has no clock. */
export function hasClock(clock: GameClock | null | undefined, period: GamePeriod | null): clock is GameClock {
  return Boolean(clock) && period !== 'SO' && (clock?.periodMs ?? 0) > 0;
}

/** "m:ss" or "ss.t" typed by a person → ms; null when it does not read as a time. */
export function parseClock(text: string): number | null {
  const t = text.trim();
  const colon = /^(\d{1,2}):([0-5]\d)(?:\.(\d))?$/.exec(t);
  if (colon) return (Number(colon[1]) * 60 + Number(colon[2])) * 1000 + Number(colon[3] ?? 0) * 100;
  const secs = /^(\d{1,2})(?:\.(\d))?$/.exec(t);
  if (secs) return Number(secs[1]) * 1000 + Number(secs[2] ?? 0) * 100;
  return null;
}
