import { describe, expect, it } from 'vitest';
import { dayLabel, groupByDay, shortWhen, timeOfDay } from './days';

const TORONTO = 'America/Toronto';
// Tue 24 Nov 2026, 10:00 in Toronto.
const now = new Date('2026-11-24T15:00:00.000Z');

describe('groupByDay', () => {
  it('groups messages under the day they were written in the zone: Today, Yesterday, then the date', () => {
    const items = [
      { id: 'a', at: '2026-11-20T23:30:00.000Z' }, // Fri 20 Nov, 6:30 PM
      { id: 'b', at: '2026-11-23T04:30:00.000Z' }, // Sun 22 Nov, 11:30 PM in Toronto (Monday in UTC)
      { id: 'c', at: '2026-11-23T14:00:00.000Z' }, // Mon 23 Nov
      { id: 'd', at: '2026-11-23T23:59:00.000Z' }, // Mon 23 Nov, 6:59 PM
      { id: 'e', at: '2026-11-24T05:10:00.000Z' }, // Tue 24 Nov, 12:10 AM
    ];
    const groups = groupByDay(items, (i) => i.at, { now, timeZone: TORONTO });
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ['Fri, Nov 20', ['a']],
      ['Sun, Nov 22', ['b']],
      ['Yesterday', ['c', 'd']],
      ['Today', ['e']],
    ]);
  });

  it('names another year’s day with its year, and counts days on the calendar across a clock change', () => {
    expect(dayLabel('2025-11-24T15:00:00.000Z', { now, timeZone: TORONTO })).toBe('Mon, Nov 24, 2025');
    // 2 Nov 2026 is the day Toronto's clocks go back: the day before 3 Nov is still "Yesterday".
    expect(dayLabel('2026-11-02T12:00:00.000Z', { now: new Date('2026-11-03T12:00:00.000Z'), timeZone: TORONTO })).toBe('Yesterday');
  });
});

describe('times', () => {
  it('says a message’s time of day, and a list row’s short time by how long ago', () => {
    expect(timeOfDay('2026-11-24T02:05:00.000Z', { timeZone: TORONTO })).toBe('9:05 PM');
    expect(shortWhen('2026-11-24T14:05:00.000Z', { now, timeZone: TORONTO })).toBe('9:05 AM');
    expect(shortWhen('2026-11-23T14:05:00.000Z', { now, timeZone: TORONTO })).toBe('Yesterday');
    expect(shortWhen('2026-11-20T14:05:00.000Z', { now, timeZone: TORONTO })).toBe('Fri');
    expect(shortWhen('2026-10-20T14:05:00.000Z', { now, timeZone: TORONTO })).toBe('Oct 20');
  });
});
