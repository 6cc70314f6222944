// The create/edit form as plain strings, and the conversions to the API:
// create sends what is filled in; edit sends only what changed, with an
// emptied field sent as null (which clears it on the server).

import type { FieldErrors } from '../../../lib/api';
import type { EventType, GroupConfig, RinkEvent } from '../../../lib/api-types';
import { fromLocalInput, toLocalInput } from '../../../lib/time-zone';
import { deviceZone } from '../../../lib/time-zone';
import type { CreateEventInput, EventInput } from '../api/events';
import { defaultUntil, MAX_SERIES_EVENTS, seriesPreview } from './series';

export interface EventDraft {
  title: string;
  description: string;
  location: string;
  /** `datetime-local` values, in the viewer's time zone. */
  startDate: string;
  endDate: string;
  imageUrl: string;
  facilityId: string;
  seasonId: string;
  externalHomeTeamName: string;
  externalAwayTeamName: string;
  externalRink: string;
  homeScore: string;
  awayScore: string;
  eventType: EventType;
  /** Empty = unlimited. */
  maxSkaters: string;
  maxGoalies: string;
  groupConfig: GroupConfig | null;
  /** Create only: one event, or one a week (docs/series.md). */
  repeat: 'NONE' | 'WEEKLY';
  /** `YYYY-MM-DD` as typed; null until touched = the default, eight weeks after the start's day (it follows the start). */
  repeatUntil: string | null;
}

/** Games are scheduled one by one (a league's come from its season): they never repeat. */
export const NON_REPEATING_TYPES: readonly EventType[] = ['GAME', 'EXTERNAL_GAME'];

/** The draft makes a weekly series: "Every week" picked, for a type that may repeat. */
export function repeatsWeekly(d: EventDraft): boolean {
  return d.repeat === 'WEEKLY' && !NON_REPEATING_TYPES.includes(d.eventType);
}

/** The "Until" day in effect: the typed one, else the default from the start. */
export function effectiveUntil(d: EventDraft): string {
  return d.repeatUntil ?? defaultUntil(d.startDate);
}

export const GROUP_PRESETS = [
  { name: 'Dark', color: '#1b2a4a' },
  { name: 'Light', color: '#f2f5fa' },
  { name: 'Red', color: '#d7263d' },
  { name: 'Green', color: '#1f9d55' },
] as const;

export const MAX_GROUPS = 4;
export const MIN_GROUPS = 2;

export function defaultGroupConfig(): GroupConfig {
  return { groups: GROUP_PRESETS.slice(0, 2).map((g) => ({ ...g })), balanceBy: 'POSITION' };
}

export function emptyDraft(facilityId = ''): EventDraft {
  return {
    title: '',
    description: '',
    location: '',
    startDate: '',
    endDate: '',
    imageUrl: '',
    facilityId,
    seasonId: '',
    externalHomeTeamName: '',
    externalAwayTeamName: '',
    externalRink: '',
    homeScore: '',
    awayScore: '',
    eventType: 'PRACTICE',
    maxSkaters: '',
    maxGoalies: '',
    groupConfig: null,
    repeat: 'NONE',
    repeatUntil: null,
  };
}

const str = (v: string | null) => v ?? '';
const num = (v: number | null) => (v === null ? '' : String(v));

export function draftFromEvent(e: RinkEvent): EventDraft {
  return {
    title: e.title,
    description: str(e.description),
    location: str(e.location),
    startDate: toLocalInput(e.startDate),
    endDate: toLocalInput(e.endDate),
    imageUrl: str(e.imageUrl),
    facilityId: str(e.facilityId),
    seasonId: str(e.seasonId),
    externalHomeTeamName: str(e.externalHomeTeamName),
    externalAwayTeamName: str(e.externalAwayTeamName),
    externalRink: str(e.externalRink),
    homeScore: num(e.homeScore),
    awayScore: num(e.awayScore),
    eventType: e.eventType,
    maxSkaters: num(e.maxSkaters),
    maxGoalies: num(e.maxGoalies),
    groupConfig: e.groupConfig ? { balanceBy: e.groupConfig.balanceBy, groups: e.groupConfig.groups.map((g) => ({ ...g })) } : null,
    // An edit never re-makes a series: that is the scope choice on save.
    repeat: 'NONE',
    repeatUntil: null,
  };
}

/** An end time 90 minutes after `start` (a usual ice slot), as a `datetime-local` value. */
export function suggestedEnd(start: string): string {
  const iso = fromLocalInput(start);
  if (!iso) return '';
  return toLocalInput(new Date(new Date(iso).getTime() + 90 * 60_000).toISOString());
}

/** The longest title the server takes (characters after trimming). */
export const TITLE_MAX_CHARS = 200;

/** Characters as the server counts them (Unicode scalar values, after trim). */
export function titleLength(title: string): number {
  return Array.from(title.trim()).length;
}

/** Why the title cannot be saved, or null. A long one is refused, never cut (the server's words). */
export function titleProblem(title: string): string | null {
  const n = titleLength(title);
  if (n === 0) return 'Give the event a name.';
  if (n > TITLE_MAX_CHARS) return `${n} characters; at most ${TITLE_MAX_CHARS}.`;
  return null;
}

const isWhole = (s: string) => /^\d+$/.test(s.trim());

/** The checks we can make before asking the server; it checks again. */
/** How far ahead an event may start (the server's rule, docs/walkthrough.md): two years. */
export const EVENT_HORIZON_MS = (2 * 365 + 1) * 24 * 3600 * 1000;

/** `originalStart`: an edited event's stored start, which is not checked again when unchanged. */
export function validateDraft(d: EventDraft, now: number = Date.now(), originalStart?: string): FieldErrors {
  const e: FieldErrors = {};
  const title = titleProblem(d.title);
  if (title) e.title = title;
  const start = fromLocalInput(d.startDate);
  if (!start) e.startDate = 'When does it start?';
  else if (Date.parse(start) > now + EVENT_HORIZON_MS && !(originalStart && Date.parse(originalStart) === Date.parse(start))) e.startDate = 'Pick a start within two years from today.';
  const end = d.endDate ? fromLocalInput(d.endDate) : null;
  if (d.endDate && !end) e.endDate = 'Not a valid time.';
  if (start && end && end < start) e.endDate = 'Ends before it starts.';
  for (const k of ['maxSkaters', 'maxGoalies'] as const) {
    const v = d[k].trim();
    if (v && (!isWhole(v) || Number(v) > 500)) e[k] = 'A whole number up to 500, or empty for no limit.';
  }
  for (const k of ['homeScore', 'awayScore'] as const) {
    const v = d[k].trim();
    if (v && (!isWhole(v) || Number(v) > 999)) e[k] = '0–999.';
  }
  if (start && repeatsWeekly(d)) {
    const preview = seriesPreview(d.startDate, effectiveUntil(d));
    if (!effectiveUntil(d)) e.repeatUntil = 'Until which day?';
    else if (preview.count === 0) e.repeatUntil = 'Pick a day on or after the first event.';
    else if (preview.tooMany) e.repeatUntil = `At most ${MAX_SERIES_EVENTS} events: pick an earlier end.`;
  }
  if (d.imageUrl.trim() && !/^https?:\/\//i.test(d.imageUrl.trim())) e.imageUrl = 'Start with http:// or https://';
  if (d.groupConfig) {
    const n = d.groupConfig.groups.length;
    if (n < MIN_GROUPS || n > MAX_GROUPS) e.groupConfig = '2 to 4 groups.';
    else if (d.groupConfig.groups.some((g) => !g.name.trim())) e.groupConfig = 'Every group needs a name.';
    else if (d.groupConfig.groups.some((g) => g.name.trim().length > 30)) e.groupConfig = 'Group names: at most 30 characters.';
    else if (d.groupConfig.groups.some((g) => !/^#[0-9a-fA-F]{6}$/.test(g.color))) e.groupConfig = 'Pick a colour for every group.';
  }
  return e;
}

function cleanGroups(g: GroupConfig | null): GroupConfig | null {
  return g ? { balanceBy: g.balanceBy, groups: g.groups.map((x) => ({ name: x.name.trim(), color: x.color.toLowerCase() })) } : null;
}

/** Every field as the API wants it; empty text is null. Call after `validateDraft`. */
function fullInput(d: EventDraft): Required<EventInput> {
  const text = (s: string) => (s.trim() ? s.trim() : null);
  const int = (s: string) => (s.trim() ? Number(s.trim()) : null);
  return {
    title: d.title.trim(),
    description: text(d.description),
    location: text(d.location),
    startDate: fromLocalInput(d.startDate) ?? '',
    endDate: d.endDate ? fromLocalInput(d.endDate) : null,
    imageUrl: text(d.imageUrl),
    facilityId: text(d.facilityId),
    seasonId: text(d.seasonId),
    externalHomeTeamName: text(d.externalHomeTeamName),
    externalAwayTeamName: text(d.externalAwayTeamName),
    externalRink: text(d.externalRink),
    homeScore: int(d.homeScore),
    awayScore: int(d.awayScore),
    eventType: d.eventType,
    maxSkaters: int(d.maxSkaters),
    maxGoalies: int(d.maxGoalies),
    groupConfig: cleanGroups(d.groupConfig),
  };
}

/**
 * The body of `POST /events`: only what is filled in, and `repeat` for a
 * weekly series, in the browser's zone (the server prefers the rink's).
 */
export function createInput(d: EventDraft, timeZone: string = deviceZone()): CreateEventInput {
  const all = fullInput(d);
  const out: CreateEventInput = {};
  for (const [k, v] of Object.entries(all) as Array<[keyof EventInput, unknown]>) {
    if (v !== null && v !== '') (out as Record<string, unknown>)[k] = v;
  }
  if (repeatsWeekly(d)) out.repeat = { frequency: 'WEEKLY', until: effectiveUntil(d), timeZone };
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The body of `PATCH /events/{id}`: only what changed; cleared fields are null. */
export function patchInput(original: RinkEvent, d: EventDraft): EventInput {
  const next = fullInput(d);
  const before = fullInput(draftFromEvent(original));
  const out: EventInput = {};
  for (const k of Object.keys(next) as Array<keyof EventInput>) {
    // Times compare by instant: the form has minute precision, so an
    // untouched start must not be re-sent just because seconds differ.
    if (k === 'startDate' || k === 'endDate') {
      const was = k === 'startDate' ? original.startDate : original.endDate;
      const wasMinute = was ? fromLocalInput(toLocalInput(was)) : null;
      if (same(wasMinute, next[k])) continue;
    } else if (same(before[k], next[k])) continue;
    (out as Record<string, unknown>)[k] = next[k];
  }
  return out;
}

/**
 * What the organiser confirms before saving: a start in the past (a new
 * event, or a start moved into the past) is allowed, for skates written
 * down afterwards, but never by a slip of the year.
 */
export function pastStartWarning(d: EventDraft, original: RinkEvent | undefined, now: number = Date.now()): string | null {
  const start = fromLocalInput(d.startDate);
  if (!start || Date.parse(start) >= now) return null;
  if (original && Date.parse(original.startDate) === Date.parse(start)) return null;
  const when = new Date(start).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `This starts in the past (${when}). Nobody can sign up for it in time. Save it anyway?`;
}
