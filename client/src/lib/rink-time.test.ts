import { describe, expect, it } from 'vitest';
import { rinkClock, rinkDateTile, rinkDayKey, rinkDayLabel, rinkTimeRange, shownZone, zoneLabel } from './rink-time';

// The device is in Berlin, the rink in Toronto: 2026-12-01T00:30Z is
// Monday 7:30 PM at the rink and Tuesday 1:30 AM on the device.
const DEVICE = 'Europe/Berlin';
const RINK = 'America/Toronto';
const START = '2026-12-01T00:30:00Z';
const END = '2026-12-01T02:00:00Z';

describe('rink time', () => {
  it('shows the rink\u2019s clock, labelled with its zone, when the device is elsewhere', () => {
    expect(rinkClock(START, RINK, DEVICE)).toMatch(/^7:30\sPM$/);
    expect(zoneLabel(Date.parse(START), RINK, DEVICE)).toBe('EST');
    expect(rinkTimeRange(START, END, RINK, DEVICE)).toMatch(/^7:30\s?–\s?9:00\sPM EST$/);
  });

  it('puts the day on the rink\u2019s calendar, not the device\u2019s', () => {
    expect(rinkDateTile(START, RINK, DEVICE)).toEqual({ weekday: 'Mon', day: '30', month: 'Nov' });
    expect(rinkDateTile(START, DEVICE, DEVICE)).toEqual({ weekday: 'Tue', day: '1', month: 'Dec' });
  });

  it('groups and names schedule days on the rink\u2019s calendar', () => {
    expect(rinkDayKey(START, RINK, DEVICE)).toBe('2026-11-30');
    expect(rinkDayKey(START, DEVICE, DEVICE)).toBe('2026-12-01');
    // Monday noon at the rink: the 7:30 PM game is today there, though the device already reads Tuesday.
    const monday = new Date('2026-11-30T17:00:00Z');
    expect(rinkDayLabel(START, RINK, monday, DEVICE)).toBe('Today');
    expect(rinkDayLabel(START, DEVICE, monday, DEVICE)).toBe('Tomorrow');
    expect(rinkDayLabel('2026-12-05T00:30:00Z', RINK, monday, DEVICE)).toMatch(/^Friday, December 4$/);
    expect(rinkDayLabel('2027-01-05T00:30:00Z', RINK, monday, DEVICE)).toMatch(/2027/);
  });

  it('has no label when the device reads the rink\u2019s clock', () => {
    expect(rinkTimeRange(START, END, RINK, RINK)).toMatch(/^7:30\s?–\s?9:00\sPM$/);
    // Another zone name, the same clock at that instant: no label either.
    expect(zoneLabel(Date.parse(START), 'America/New_York', RINK)).toBeNull();
  });

  it('falls back to the device\u2019s clock, unlabelled, without a rink or with a zone it cannot read', () => {
    expect(shownZone(null, DEVICE)).toBe(DEVICE);
    expect(shownZone('Not/A_Zone', DEVICE)).toBe(DEVICE);
    expect(rinkTimeRange(START, null, null, DEVICE)).toMatch(/^1:30\sAM$/);
  });

  it('drops the end when it falls on another day at the rink', () => {
    expect(rinkTimeRange('2026-12-01T04:00:00Z', '2026-12-01T06:00:00Z', RINK, DEVICE)).toMatch(/^11:00\sPM EST$/);
  });
});
