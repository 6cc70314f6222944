// Weekly series on screen (docs/series.md): the create form's preview
// ("Every Tuesday at 9:30 PM · 17 events, Dec 1 – Mar 30") and the event
// page's pattern line. Everything here works on wall-clock values — a day
// `YYYY-MM-DD` and a time `HH:MM` — never on instants: a weekly skate keeps
// its 21:30 when the clocks change, so counting and labelling in local days
// is both what the server does and immune to the DST hour.

import { dayKey, formatIn, shownZone, wallClock } from '../../../lib/time-zone';

/** The server's cap: a year of Tuesdays. */
export const MAX_SERIES_EVENTS = 52;

/** The create form's default end: this many weeks after the first day. */
export const DEFAULT_SERIES_WEEKS = 8;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/;

/** A `YYYY-MM-DD` as midnight UTC (a day number, free of any zone); null when malformed. */
function dayMs(day: string): number | null {
  const m = DAY_RE.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : null;
}

const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `day` plus `n` days, as `YYYY-MM-DD`; '' when `day` is malformed. */
export function addDays(day: string, n: number): string {
  const ms = dayMs(day);
  return ms === null ? '' : dayString(ms + n * DAY_MS);
}

/** The day part of a `datetime-local` value ('' when there is none). */
export function localDay(startLocal: string): string {
  const m = LOCAL_RE.exec(startLocal);
  return m?.[1] ?? '';
}

/** The create form's default "Until": eight weeks after the start's day. */
export function defaultUntil(startLocal: string): string {
  const day = localDay(startLocal);
  return day ? addDays(day, DEFAULT_SERIES_WEEKS * 7) : '';
}

/** Every weekly day from the start's day to `until`, inclusive; [] when `until` is before it or either is malformed. */
export function weeklyDays(startLocal: string, until: string): string[] {
  const first = dayMs(localDay(startLocal));
  const last = dayMs(until);
  if (first === null || last === null || last < first) return [];
  const out: string[] = [];
  for (let ms = first; ms <= last; ms += 7 * DAY_MS) out.push(dayString(ms));
  return out;
}

const normaliseSpaces = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

/** "Tuesday" for a day, in `locale`. */
function weekdayName(day: string, locale?: string): string {
  const ms = dayMs(day);
  return ms === null ? '' : formatIn(ms, 'UTC', { weekday: 'long' }, locale);
}

/** "Dec 1" ("Dec 1, 2027" with `withYear`). */
export function shortDay(day: string, locale?: string, withYear = false): string {
  const ms = dayMs(day);
  if (ms === null) return '';
  return normaliseSpaces(formatIn(ms, 'UTC', { month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}) }, locale));
}

/** "9:30 PM" for a wall-clock hour and minute, in `locale`. */
function wallTime(hour: number, minute: number, locale?: string): string {
  return normaliseSpaces(formatIn(Date.UTC(2000, 0, 1, hour, minute), 'UTC', { hour: 'numeric', minute: '2-digit' }, locale));
}

export interface SeriesPreview {
  /** How many events the series would make (not capped: the caller says when it is too many). */
  count: number;
  /** `YYYY-MM-DD` of the first and last event; '' when there are none. */
  first: string;
  last: string;
  /** More than the server takes. */
  tooMany: boolean;
  /** "Every Tuesday at 9:30 PM · 17 events, Dec 1 – Mar 30", or why there is no series. */
  text: string;
}

/**
 * What "Every week until `until`" makes of a start (`datetime-local`, the
 * viewer's wall clock): one event a week on the start's weekday at the
 * start's time, from its day to `until` inclusive.
 */
export function seriesPreview(startLocal: string, until: string, locale?: string): SeriesPreview {
  const m = LOCAL_RE.exec(startLocal);
  const none = (text: string): SeriesPreview => ({ count: 0, first: '', last: '', tooMany: false, text });
  if (!m?.[1]) return none('Pick a start to see the dates.');
  if (dayMs(until) === null) return none('Pick the last day it repeats on.');
  const days = weeklyDays(startLocal, until);
  if (days.length === 0) return none('The end is before the first event.');
  const first = days[0] ?? '';
  const last = days[days.length - 1] ?? '';
  const pattern = `Every ${weekdayName(first, locale)} at ${wallTime(Number(m[2]), Number(m[3]), locale)}`;
  const count = days.length;
  const tooMany = count > MAX_SERIES_EVENTS;
  // No years: a series spans at most a year, and the form shows the first day in full.
  const range = count === 1 ? shortDay(first, locale) : `${shortDay(first, locale)} – ${shortDay(last, locale)}`;
  const text = tooMany
    ? `${pattern} · ${count} events. At most ${MAX_SERIES_EVENTS} events: pick an earlier end (${shortDay(days[MAX_SERIES_EVENTS - 1] ?? '', locale, true)} at the latest).`
    : `${pattern} · ${count} ${count === 1 ? 'event' : 'events'}, ${range}`;
  return { count, first, last, tooMany, text };
}

/** The wall clock of an instant in `tz` (the viewer's zone when unknown): its day and "Tuesday" / "9:30 PM". */
export function wallClockIn(iso: string, tz: string | null, locale?: string): { day: string; weekday: string; time: string } | null {
  const w = wallClock(Date.parse(iso), shownZone(tz));
  if (!w) return null;
  const day = dayKey(iso, tz);
  return { day, weekday: weekdayName(day, locale), time: wallTime(w.hour, w.minute, locale) };
}

/** "Every Tuesday at 9:30 PM · until Mar 30" for an event of the series at `iso`, on the series' clock. */
export function seriesPattern(iso: string, until: string, tz: string | null, locale?: string): string {
  const w = wallClockIn(iso, tz, locale);
  if (!w) return '';
  const sameYear = w.day.slice(0, 4) === until.slice(0, 4);
  return `Every ${w.weekday} at ${w.time} · until ${shortDay(until, locale, !sameYear)}`;
}
