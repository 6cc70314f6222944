import { describe, expect, it } from 'vitest';
import { entryWords, whenWords, type HistoryEntry } from './history';

describe('whenWords', () => {
  it('says minutes, hours or days before, and after the start', () => {
    expect(whenWords(45)).toBe('45 min before');
    expect(whenWords(180)).toBe('3 h before');
    expect(whenWords(199)).toBe('3 h before');
    expect(whenWords(47 * 60)).toBe('47 h before');
    expect(whenWords(3 * 24 * 60)).toBe('3 days before');
    expect(whenWords(0)).toBe('at puck drop');
    expect(whenWords(-20)).toBe('20 min after the start');
    expect(whenWords(-120)).toBe('2 h after the start');
  });
});

describe('entryWords', () => {
  it('puts the name, what happened and when together', () => {
    const e: HistoryEntry = { id: 'h1', at: '2030-12-01T18:00:00Z', userId: 'u1', displayName: 'Sam', kind: 'DECLINED', position: 'CENTER', minutesBefore: 180, late: true };
    expect(entryWords(e)).toBe('Sam declined 3 h before');
    expect(entryWords({ ...e, kind: 'PROMOTED', minutesBefore: 30 })).toBe('Sam got a place off the waitlist 30 min before');
  });
});
