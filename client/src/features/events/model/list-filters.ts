// The events list's filters live in the URL (shareable, and Back keeps
// them). This turns search params into `GET /events` filters and back.

import { EVENT_TYPES, type EventType } from '../../../lib/api-types';
import type { EventListFilters } from '../api/events';

export const WHEN_OPTIONS = [
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'week', label: 'Next 7 days' },
  { value: 'month', label: 'Next 30 days' },
  { value: 'any', label: 'Any time' },
  { value: 'custom', label: 'Pick dates…' },
] as const;
export type When = (typeof WHEN_OPTIONS)[number]['value'];

export interface ListParams {
  when: When;
  /** `YYYY-MM-DD`, local, only with `custom`. */
  fromDay: string;
  toDay: string;
  eventType: EventType | '';
  facilityId: string;
  /**
   * With a facility: also the community events there (held at the rink by
   * people it does not list). Meaningless without one, so dropped with it.
   */
  community: boolean;
  going: boolean;
  mine: boolean;
  cancelled: boolean;
}

export function readParams(p: URLSearchParams): ListParams {
  const when = WHEN_OPTIONS.some((o) => o.value === p.get('when')) ? (p.get('when') as When) : 'upcoming';
  const type = p.get('type') ?? '';
  const facilityId = p.get('facility') ?? '';
  return {
    when,
    fromDay: p.get('from') ?? '',
    toDay: p.get('to') ?? '',
    eventType: (EVENT_TYPES as readonly string[]).includes(type) ? (type as EventType) : '',
    facilityId,
    community: Boolean(facilityId) && p.get('community') === '1',
    going: p.get('going') === '1',
    mine: p.get('mine') === '1',
    cancelled: p.get('cancelled') === '1',
  };
}

export function writeParams(v: ListParams): URLSearchParams {
  const p = new URLSearchParams();
  if (v.when !== 'upcoming') p.set('when', v.when);
  if (v.when === 'custom' && v.fromDay) p.set('from', v.fromDay);
  if (v.when === 'custom' && v.toDay) p.set('to', v.toDay);
  if (v.eventType) p.set('type', v.eventType);
  if (v.facilityId) p.set('facility', v.facilityId);
  if (v.facilityId && v.community) p.set('community', '1');
  if (v.going) p.set('going', '1');
  if (v.mine) p.set('mine', '1');
  if (v.cancelled) p.set('cancelled', '1');
  return p;
}

function localMidnight(day: string, addDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + addDays).toISOString();
}

/**
 * The API filters for these params. `today` is the local day (`YYYY-MM-DD`)
 * rather than "now", so the query key only changes once a day. "Upcoming"
 * starts at today's midnight: a skate that started an hour ago still shows.
 */
export function toFilters(v: ListParams, today: string): EventListFilters {
  const f: EventListFilters = {};
  switch (v.when) {
    case 'upcoming':
      f.from = localMidnight(today);
      break;
    case 'week':
      f.from = localMidnight(today);
      f.to = localMidnight(today, 8);
      break;
    case 'month':
      f.from = localMidnight(today);
      f.to = localMidnight(today, 31);
      break;
    case 'custom':
      if (v.fromDay) f.from = localMidnight(v.fromDay);
      // The "to" day is included: up to the next midnight.
      if (v.toDay) f.to = localMidnight(v.toDay, 1);
      break;
    case 'any':
      break;
  }
  if (v.eventType) f.eventType = v.eventType;
  if (v.facilityId) f.facilityId = v.facilityId;
  if (v.facilityId && v.community) f.includeCommunity = true;
  if (v.going) f.attendingMe = true;
  if (v.mine) f.createdByMe = true;
  if (v.cancelled) f.includeCancelled = true;
  return f;
}

/** How many of the panel's filters differ from the defaults (for the "Filters" badge). */
export function activePanelFilters(v: ListParams): number {
  return (v.when !== 'upcoming' ? 1 : 0) + (v.eventType ? 1 : 0) + (v.facilityId ? 1 : 0);
}
