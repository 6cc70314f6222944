// How events read on screen: type names and dates/times in the viewer's own
// locale and time zone. Shared by the events pages and the home dashboard.

import type { EventType, OpenPlaces, RinkEvent } from './api-types';

export const EVENT_TYPE_LABELS: Record<EventType, string> = {
  GAME: 'Game',
  PRACTICE: 'Practice',
  PUBLIC_SKATING: 'Public skate',
  WATCH_PARTY: 'Watch party',
  OTHER: 'Pickup / other',
  EXTERNAL_GAME: 'League game',
};

/** When an event without an end time is considered over. */
export const DEFAULT_EVENT_LENGTH_MS = 2 * 60 * 60 * 1000;

function valid(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** The calendar tile on cards: "SAT" / "28" / "NOV". */
export function dateTile(iso: string): { weekday: string; day: string; month: string } {
  const d = valid(iso) ?? new Date(0);
  return {
    weekday: d.toLocaleDateString(undefined, { weekday: 'short' }),
    day: d.toLocaleDateString(undefined, { day: 'numeric' }),
    month: d.toLocaleDateString(undefined, { month: 'short' }),
  };
}

const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** "7:00 – 8:30 PM", or "7:00 PM" without an end (or when it ends another day). */
export function timeRange(startIso: string, endIso: string | null): string {
  const start = valid(startIso);
  if (!start) return '';
  const end = valid(endIso);
  const fmt = new Intl.DateTimeFormat(undefined, TIME);
  if (end && end > start && sameDay(start, end) && typeof fmt.formatRange === 'function') {
    return fmt.formatRange(start, end);
  }
  return fmt.format(start);
}

/** "Today", "Tomorrow", "Yesterday", else "Saturday, November 28" (year added when not this year). */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const d = valid(iso);
  if (!d) return '';
  const day = 24 * 60 * 60 * 1000;
  const midnight = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const diff = Math.round((midnight(d) - midnight(now)) / day);
  if (diff === 0) return 'Today';
  if (diff === 1) return 'Tomorrow';
  if (diff === -1) return 'Yesterday';
  return d.toLocaleDateString(undefined, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}

/** "Sat, Nov 28 · 7:00 – 8:30 PM". */
export function eventWhen(event: Pick<RinkEvent, 'startDate' | 'endDate'>, now: Date = new Date()): string {
  const d = valid(event.startDate);
  if (!d) return '';
  const label = dayLabel(event.startDate, now);
  const short =
    label === 'Today' || label === 'Tomorrow' || label === 'Yesterday'
      ? label
      : d.toLocaleDateString(undefined, {
          weekday: 'short',
          month: 'short',
          day: 'numeric',
          ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
        });
  return `${short} · ${timeRange(event.startDate, event.endDate)}`;
}

/**
 * Held at a rink that does not list it under its name: somebody who is not
 * the rink's staff made it there, and the staff have not listed it
 * (docs/permissions.md, "Who may attach to whom"). An event with no rink is
 * just an event, not a community one.
 */
export function isCommunityEvent(event: Pick<RinkEvent, 'facilityId' | 'hostedByFacility'>): boolean {
  return Boolean(event.facilityId) && !event.hostedByFacility;
}

/** Past its end (or two hours after the start when it has no end). */
export function isEventOver(event: Pick<RinkEvent, 'startDate' | 'endDate'>, now: Date = new Date()): boolean {
  const start = valid(event.startDate);
  if (!start) return false;
  const end = valid(event.endDate) ?? new Date(start.getTime() + DEFAULT_EVENT_LENGTH_MS);
  return end.getTime() < now.getTime();
}

/** Started and not yet over. */
export function isEventUnderway(event: Pick<RinkEvent, 'startDate' | 'endDate'>, now: Date = new Date()): boolean {
  const start = valid(event.startDate);
  return !!start && start.getTime() <= now.getTime() && !isEventOver(event, now);
}

/** "in 2 hours", "tomorrow", "in 3 days", "5 minutes ago" — for the hero's countdown. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const d = valid(iso);
  if (!d) return '';
  const diffSec = Math.round((d.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(diffSec);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (abs < 60) return rtf.format(Math.round(diffSec), 'second');
  if (abs < 3600) return rtf.format(Math.round(diffSec / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diffSec / 3600), 'hour');
  // Beyond a day, count calendar days: tomorrow evening is "tomorrow", not "in 2 days".
  const midnight = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  return rtf.format(Math.round((midnight(d) - midnight(now)) / 86_400_000), 'day');
}

/** `<input type="datetime-local">` value for an RFC 3339 time, in local time. */
export function toLocalInput(iso: string | null | undefined): string {
  const d = valid(iso);
  if (!d) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** RFC 3339 (UTC) for a `datetime-local` value; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * "1 goalie spot open", "2 skater spots open", or both joined with " · ";
 * null when no role is short (null places mean unlimited: never "open").
 */
export function openSpotsText(open: OpenPlaces): string | null {
  const parts: string[] = [];
  if (open.goalies !== null && open.goalies > 0) parts.push(`${open.goalies} goalie ${open.goalies === 1 ? 'spot' : 'spots'} open`);
  if (open.skaters !== null && open.skaters > 0) parts.push(`${open.skaters} skater ${open.skaters === 1 ? 'spot' : 'spots'} open`);
  return parts.length ? parts.join(' · ') : null;
}

/** "9:30 PM" as the clock reads in `tz` (the viewer's zone when null or unknown). */
export function timeInZone(iso: string, tz: string | null): string {
  const d = valid(iso);
  if (!d) return '';
  try {
    return d.toLocaleTimeString(undefined, { ...TIME, ...(tz ? { timeZone: tz } : {}) });
  } catch {
    return d.toLocaleTimeString(undefined, TIME);
  }
}
