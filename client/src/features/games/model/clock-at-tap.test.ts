import { describe, expect, it } from 'vitest';
import type { GameClock, GameLogEntry } from '../../../lib/api-types';
import { clockAtTap } from './clock-at-tap';

const clock = (over: Partial<GameClock> = {}): GameClock => ({ phase: 'PLAY', running: false, remainingMs: 754_321, at: 1_000, periodMs: 1_200_000, offsetMs: 0, ...over });
const shot = (clockMs: number, period: GameLogEntry['period'] = '1'): GameLogEntry => ({ seq: 1, type: 'SHOT', period, rosterId: 'H', playerId: null, assistIds: [], minutes: null, clockMs });

describe('clockAtTap', () => {
  it('takes a stopped clock exactly as the server holds it', () => {
    expect(clockAtTap({ clock: clock(), log: [], period: '1' }, 99_999)).toBe(754_321);
  });

  it('estimates a running clock at the tap, never before the last timed entry of the period', () => {
    const running = clock({ running: true });
    expect(clockAtTap({ clock: running, log: [], period: '1' }, 11_000)).toBe(744_321);
    expect(clockAtTap({ clock: running, log: [shot(744_000)], period: '1' }, 10_000)).toBe(744_000);
    // An entry of an earlier period does not bind this one.
    expect(clockAtTap({ clock: running, log: [shot(100, '1')], period: '2' }, 10_000)).toBe(745_321);
  });

  it('has no time to give in an intermission, a shootout or without a clock', () => {
    expect(clockAtTap({ clock: clock({ phase: 'INTERMISSION' }), log: [], period: '1' }, 0)).toBeNull();
    expect(clockAtTap({ clock: clock({ periodMs: 0 }), log: [], period: 'SO' }, 0)).toBeNull();
    expect(clockAtTap({ clock: null, log: [], period: '1' }, 0)).toBeNull();
  });
});
