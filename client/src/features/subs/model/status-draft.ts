// The post/edit form's state, its checks, and the bodies it sends
// (docs/statuses.md › The Status). The server checks the same rules; the
// form checks them first so a mistake is named beside its field.

import type { HockeyPosition, Status, StatusType } from '../../../lib/api-types';
import { fromLocalInput, toLocalInput } from '../../../lib/time-zone';
import type { FieldErrors } from '../../../lib/api';
import { isShortLived } from './describe';

/** The longest message the server keeps. */
export const MESSAGE_MAX = 500;
/** How far ahead a status may run: a night's availability versus a season's search. */
export const SHORT_MAX_DAYS = 14;
export const LONG_MAX_DAYS = 90;
/** Closer than this to midnight, "end of today" means the end of tomorrow. */
const LATE_EVENING_MS = 30 * 60_000;

export interface StatusDraft {
  /** `me`, or the id of a team I own or manage. */
  target: string;
  type: StatusType;
  positions: HockeyPosition[];
  message: string;
  /** `datetime-local` value; empty = the server's default. */
  until: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** 23:59 today (tomorrow when it is almost midnight) as a `datetime-local` value. */
export function endOfToday(now: Date = new Date()): string {
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59);
  if (end.getTime() - now.getTime() < LATE_EVENING_MS) end.setDate(end.getDate() + 1);
  return `${localDay(end)}T23:59`;
}

/** What "until" starts as for a type: the end of today for tonight's kinds, the server's 30 days otherwise. */
export function defaultUntil(type: StatusType, now: Date = new Date()): string {
  return isShortLived(type) ? endOfToday(now) : '';
}

export function newDraft(type: StatusType = 'AVAILABLE_TO_SUB', now: Date = new Date()): StatusDraft {
  return { target: 'me', type, positions: [], message: '', until: defaultUntil(type, now) };
}

/** A draft holding a status's current values, for editing it. */
export function draftOf(s: Status): StatusDraft {
  return { target: s.entityType === 'TEAM' ? (s.teamId ?? 'me') : 'me', type: s.type, positions: [...s.positions], message: s.message ?? '', until: toLocalInput(s.expiresAt) };
}

export function maxDays(type: StatusType): number {
  return isShortLived(type) ? SHORT_MAX_DAYS : LONG_MAX_DAYS;
}

/** Field → message for what the server would refuse; empty when the draft can go. */
export function validateDraft(d: StatusDraft, now: Date = new Date()): FieldErrors {
  const errors: FieldErrors = {};
  if (d.message.trim().length > MESSAGE_MAX) errors.message = `At most ${MESSAGE_MAX} characters.`;
  const teamType = d.type === 'LOOKING_FOR_SUBS' || d.type === 'RECRUITING';
  if (teamType && d.target === 'me') errors.target = 'Pick the team this is for.';
  if (!teamType && d.target !== 'me') errors.target = 'Only a team can recruit or look for subs.';
  if (d.until) {
    const iso = fromLocalInput(d.until);
    if (!iso) errors.expiresAt = 'Pick a date and time.';
    else if (Date.parse(iso) <= now.getTime()) errors.expiresAt = 'Pick a time in the future.';
    else if (Date.parse(iso) > now.getTime() + maxDays(d.type) * 86_400_000) errors.expiresAt = `At most ${maxDays(d.type)} days ahead.`;
  }
  return errors;
}

export interface CreateStatusBody {
  type: StatusType;
  entityType: 'USER' | 'TEAM';
  teamId?: string;
  eventId?: string;
  message?: string;
  positions?: HockeyPosition[];
  expiresAt?: string;
}

export function createBody(d: StatusDraft): CreateStatusBody {
  const body: CreateStatusBody = { type: d.type, entityType: d.target === 'me' ? 'USER' : 'TEAM', positions: d.positions };
  if (d.target !== 'me') body.teamId = d.target;
  const message = d.message.trim();
  if (message) body.message = message;
  const expiresAt = d.until ? fromLocalInput(d.until) : null;
  if (expiresAt) body.expiresAt = expiresAt;
  return body;
}

export interface PatchStatusBody {
  message?: string | null;
  positions?: HockeyPosition[];
  expiresAt?: string;
}

/** Only what changed; null clears the message. */
export function patchBody(d: StatusDraft, s: Status): PatchStatusBody {
  const body: PatchStatusBody = {};
  const message = d.message.trim();
  if (message !== (s.message ?? '')) body.message = message || null;
  const same = d.positions.length === s.positions.length && d.positions.every((p) => s.positions.includes(p));
  if (!same) body.positions = d.positions;
  const expiresAt = d.until ? fromLocalInput(d.until) : null;
  if (expiresAt && d.until !== toLocalInput(s.expiresAt)) body.expiresAt = expiresAt;
  return body;
}
