// Times in a conversation, on this device's clock (a chat is read where
// one is, unlike an event, which is at its rink): messages grouped under
// "Today", "Yesterday", "Mon, Nov 24"; a message's time of day; a list
// row's short time.

import { dayKey, formatIn } from '../../../lib/time-zone';

export interface DayGroup<T> {
  /** YYYY-MM-DD in the zone. */
  day: string;
  label: string;
  items: T[];
}

export interface ClockOptions {
  now?: Date;
  /** An IANA zone; the device's by default (tests pin one). */
  timeZone?: string;
}

/** The day before a YYYY-MM-DD (calendar arithmetic, so a DST change does not matter). */
function dayBefore(key: string): string {
  const [y, m, d] = key.split('-').map(Number);
  const prev = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, (d ?? 1) - 1));
  return prev.toISOString().slice(0, 10);
}

/** "Today", "Yesterday", "Mon, Nov 24", or with the year when it is not this one ("Mon, Nov 24, 2025"). */
export function dayLabel(iso: string, opts: ClockOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const today = dayKey(opts.now ?? new Date(), opts.timeZone);
  const key = dayKey(date, opts.timeZone);
  if (key === today) return 'Today';
  if (key === dayBefore(today)) return 'Yesterday';
  const sameYear = key.slice(0, 4) === today.slice(0, 4);
  return formatIn(date, opts.timeZone, { weekday: 'short', month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) }, 'en-US');
}

/** Items (already in order) under their day, a new group wherever the day changes. */
export function groupByDay<T>(items: readonly T[], at: (item: T) => string, opts: ClockOptions = {}): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const iso = at(item);
    const date = new Date(iso);
    const day = Number.isNaN(date.getTime()) ? '' : dayKey(date, opts.timeZone);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, label: dayLabel(iso, opts), items: [item] });
  }
  return groups;
}

/** "9:05 PM". */
export function timeOfDay(iso: string, opts: ClockOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatIn(date, opts.timeZone, { hour: 'numeric', minute: '2-digit' }, 'en-US');
}

/** A list row's time: "9:05 PM" today, "Yesterday", the weekday within a week, else "Nov 24". */
export function shortWhen(iso: string, opts: ClockOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const now = opts.now ?? new Date();
  const label = dayLabel(iso, opts);
  if (label === 'Today') return timeOfDay(iso, opts);
  if (label === 'Yesterday') return label;
  if (now.getTime() - date.getTime() < 6 * 86_400_000) return formatIn(date, opts.timeZone, { weekday: 'short' }, 'en-US');
  return formatIn(date, opts.timeZone, { month: 'short', day: 'numeric' }, 'en-US');
}

/** The full moment, for a time's tooltip. */
export function fullWhen(iso: string, opts: ClockOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return formatIn(date, opts.timeZone, { dateStyle: 'medium', timeStyle: 'short' }, 'en-US');
}
