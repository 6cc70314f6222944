// How events read on screen: type names, open places, whether one is over,
// and "Sat, Nov 28 · 7:00 – 8:30 PM" on the device's clock. Times on a
// rink's clock, and everything else about zones, are lib/time-zone.ts's.

import type { EventType, OpenPlaces, RinkEvent } from './api-types';
import { formatIn, rinkDayLabel, rinkTimeRange } from './time-zone';

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

/** "Sat, Nov 28 · 7:00 – 8:30 PM". */
export function eventWhen(event: Pick<RinkEvent, 'startDate' | 'endDate'>, now: Date = new Date()): string {
  const d = valid(event.startDate);
  if (!d) return '';
  const label = rinkDayLabel(event.startDate, null, now);
  const short =
    label === 'Today' || label === 'Tomorrow' || label === 'Yesterday'
      ? label
      : formatIn(d, null, {
          weekday: 'short',
          month: 'short',
          day: 'numeric',
          ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
        });
  return `${short} · ${rinkTimeRange(event.startDate, event.endDate, null)}`;
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
