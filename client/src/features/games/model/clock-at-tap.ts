// The game-clock time a goal or penalty is recorded at: what the clock read
// when GOAL or PENALTY was tapped (the clock may run on while the score
// keeper picks players). The server refuses an entry after the clock (in
// the future) or before the last timed entry that stands
// (docs/game-night.md › Entries), so:
// - a stopped clock gives exactly what the server holds;
// - a running one gives our estimate at the tap, which the picks that
//   follow put safely in the past, never before the last timed entry of
//   this period (an estimate a few ms off must not reorder the log).

import type { GameDocument } from '../../../lib/api-types';
import { timeLeftMs } from '../../../lib/game-clock';

export function clockAtTap(game: Pick<GameDocument, 'clock' | 'log' | 'period'>, serverNow: number): number | null {
  const clock = game.clock;
  if (!clock || clock.phase !== 'PLAY' || clock.periodMs <= 0) return null;
  if (!clock.running) return clock.remainingMs;
  let left = Math.round(timeLeftMs(clock, serverNow));
  for (const e of game.log) {
    if (e.period === game.period && e.clockMs !== null && e.clockMs !== undefined) left = Math.min(left, e.clockMs);
  }
  return left;
}
