import { describe, expect, it } from 'vitest';
import { addDays, defaultUntil, MAX_SERIES_EVENTS, seriesPattern, seriesPreview, weeklyDays } from './series';

const EN = 'en-US';

describe('weekly series preview', () => {
  it('counts one event a week from the start day to the end day, the end included', () => {
    // Tuesday Dec 1 2026 to Tuesday Mar 30 2027: 17 weeks apart, so 18 Tuesdays.
    const p = seriesPreview('2026-12-01T21:30', '2027-03-30', EN);
    expect(p.count).toBe(18);
    expect(p.first).toBe('2026-12-01');
    expect(p.last).toBe('2027-03-30');
    expect(p.tooMany).toBe(false);
    expect(p.text).toBe('Every Tuesday at 9:30 PM · 18 events, Dec 1 – Mar 30');
  });

  it('stops at the last weekday on or before the end day', () => {
    expect(seriesPreview('2026-12-01T21:30', '2027-03-29', EN).last).toBe('2027-03-23');
    expect(seriesPreview('2026-12-01T21:30', '2027-03-29', EN).count).toBe(17);
    // The end on the first day: a series of one.
    const one = seriesPreview('2026-12-01T21:30', '2026-12-01', EN);
    expect(one.count).toBe(1);
    expect(one.text).toBe('Every Tuesday at 9:30 PM · 1 event, Dec 1');
  });

  it('says when there is nothing to count', () => {
    expect(seriesPreview('', '2027-03-30', EN).count).toBe(0);
    expect(seriesPreview('2026-12-01T21:30', '', EN).text).toBe('Pick the last day it repeats on.');
    expect(seriesPreview('2026-12-01T21:30', '2026-11-30', EN).text).toBe('The end is before the first event.');
    expect(seriesPreview('2026-12-01T21:30', '2027-02-30', EN).count).toBe(0);
  });

  it('allows 52 events and refuses the 53rd, naming the latest end', () => {
    const fiftyTwo = addDays('2026-12-01', 51 * 7);
    expect(seriesPreview('2026-12-01T21:30', fiftyTwo, EN)).toMatchObject({ count: MAX_SERIES_EVENTS, tooMany: false });
    const over = seriesPreview('2026-12-01T21:30', addDays(fiftyTwo, 7), EN);
    expect(over).toMatchObject({ count: 53, tooMany: true });
    expect(over.text).toBe('Every Tuesday at 9:30 PM · 53 events. At most 52 events: pick an earlier end (Nov 23, 2027 at the latest).');
  });

  it('keeps the wall-clock time across a clock change', () => {
    // Clocks fall back on Nov 1 2026 and spring forward on Mar 14 2027 in North America:
    // the preview is in local days and times, so nothing moves.
    const p = seriesPreview('2026-10-27T21:30', '2027-03-16', EN);
    expect(p.text).toBe('Every Tuesday at 9:30 PM · 21 events, Oct 27 – Mar 16');
    expect(weeklyDays('2026-10-27T21:30', '2026-11-10')).toEqual(['2026-10-27', '2026-11-03', '2026-11-10']);
    // The event page reads each event's instant on the series' clock: 01:30 UTC in
    // October and 02:30 UTC in November are both 9:30 PM in Toronto.
    expect(seriesPattern('2026-10-28T01:30:00Z', '2027-03-16', 'America/Toronto', EN)).toBe('Every Tuesday at 9:30 PM · until Mar 16, 2027');
    expect(seriesPattern('2026-11-11T02:30:00Z', '2027-03-16', 'America/Toronto', EN)).toBe('Every Tuesday at 9:30 PM · until Mar 16, 2027');
    expect(seriesPattern('2027-03-17T01:30:00Z', '2027-03-16', 'America/Toronto', EN)).toBe('Every Tuesday at 9:30 PM · until Mar 16');
  });

  it('ends eight weeks after the start by default', () => {
    expect(defaultUntil('2026-12-01T21:30')).toBe('2027-01-26');
    expect(defaultUntil('')).toBe('');
  });
});
