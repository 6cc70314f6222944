import { describe, expect, it } from 'vitest';
import type { GameClock } from './api-types';
import { formatClock, formatMinutes, gameTimeMs, gameTimeWith, hasClock, isTimeUp, parseClock, timeLeftMs } from './game-clock';

const clock = (over: Partial<GameClock> = {}): GameClock => ({ phase: 'PLAY', running: true, remainingMs: 734_120, at: 1_000_000, periodMs: 1_200_000, offsetMs: 1_200_000, ...over });

describe('timeLeftMs', () => {
  it('counts down from `at` while running, holds while stopped', () => {
    expect(timeLeftMs(clock(), 1_000_000)).toBe(734_120);
    expect(timeLeftMs(clock(), 1_060_000)).toBe(674_120);
    expect(timeLeftMs(clock({ running: false }), 9_999_999)).toBe(734_120);
  });

  it('never goes below zero nor adds time for an instant before `at` (a clock estimate a little behind)', () => {
    expect(timeLeftMs(clock(), 10_000_000)).toBe(0);
    expect(timeLeftMs(clock(), 999_000)).toBe(734_120);
  });

  it('loses exactly the running time over any run of starts and stops (table of gap sequences)', () => {
    const runs = [[0], [1, 2, 3], [60_000, 5_000, 120_000, 1], [700_000, 1, 700_000], Array.from({ length: 30 }, (_, i) => (i * 7919) % 50_000)];
    for (const gaps of runs) {
      let c = clock({ running: false, remainingMs: 1_200_000, at: 0 });
      let now = 0;
      let ran = 0;
      gaps.forEach((gap, i) => {
        if (c.running) ran += gap;
        now += gap;
        c = { ...c, running: i % 2 === 0, remainingMs: timeLeftMs(c, now), at: now };
      });
      expect(timeLeftMs(c, now)).toBe(Math.max(0, 1_200_000 - ran));
      expect(gameTimeMs(c, now)).toBe(1_200_000 + Math.min(1_200_000, ran));
    }
  });
});

describe('gameTimeMs', () => {
  it('is the offset plus what has run of this period', () => {
    expect(gameTimeMs(clock(), 1_000_000)).toBe(1_200_000 + 1_200_000 - 734_120);
    expect(gameTimeWith(clock(), 734_120)).toBe(1_665_880);
  });

  it('stays at the start of the period to come during an intermission', () => {
    expect(gameTimeMs(clock({ phase: 'INTERMISSION', periodMs: 900_000, remainingMs: 900_000 }), 1_500_000)).toBe(1_200_000);
  });
});

describe('formatClock', () => {
  it.each([
    [1_200_000, '20:00'],
    [1_199_001, '20:00'],
    [1_199_000, '19:59'],
    [734_120, '12:15'],
    [60_000, '1:00'],
    [59_901, '1:00'],
    [59_900, '59.9'],
    [45_310, '45.4'],
    [9_800, '9.8'],
    [100, '0.1'],
    [1, '0.1'],
    [0, '0.0'],
    [-5, '0.0'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatClock(ms)).toBe(text);
  });

  it('never reads more than a frame’s worth later than a minute-precision clock would, and only goes down as time does', () => {
    let prev = Infinity;
    for (let ms = 130_000; ms >= 0; ms -= 17) {
      const text = formatClock(ms);
      const shown = text.includes(':') ? Number(text.split(':')[0]) * 60_000 + Number(text.split(':')[1]) * 1000 : Number(text) * 1000;
      expect(shown).toBeGreaterThanOrEqual(ms - 0.001);
      expect(shown - ms).toBeLessThan(1000);
      expect(shown).toBeLessThanOrEqual(prev);
      prev = shown;
    }
  });
});

describe('formatMinutes', () => {
  it('always reads M:SS', () => {
    expect(formatMinutes(754_000)).toBe('12:34');
    expect(formatMinutes(45_100)).toBe('0:46');
    expect(formatMinutes(0)).toBe('0:00');
    expect(formatMinutes(120_000)).toBe('2:00');
  });
});

describe('parseClock', () => {
  it('reads m:ss, m:ss.t and ss.t', () => {
    expect(parseClock('12:34')).toBe(754_000);
    expect(parseClock(' 0:05 ')).toBe(5_000);
    expect(parseClock('1:02.5')).toBe(62_500);
    expect(parseClock('45.3')).toBe(45_300);
    expect(parseClock('7')).toBe(7_000);
  });
  it('refuses what is not a time', () => {
    expect(parseClock('')).toBeNull();
    expect(parseClock('12:75')).toBeNull();
    expect(parseClock('abc')).toBeNull();
    expect(parseClock('1:2')).toBeNull();
  });
});

describe('isTimeUp and hasClock', () => {
  it('says when a period ran out, and which games have a clock', () => {
    expect(isTimeUp(clock(), 10_000_000)).toBe(true);
    expect(isTimeUp(clock({ phase: 'INTERMISSION' }), 10_000_000)).toBe(false);
    expect(hasClock(clock(), '2')).toBe(true);
    expect(hasClock(clock(), 'SO')).toBe(false);
    expect(hasClock(null, '1')).toBe(false);
  });
});
