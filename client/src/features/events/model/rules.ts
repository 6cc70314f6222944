// The RSVP rules of a pickup night in words (docs/pickup-night.md): the
// sentences everyone reads on the event page ("Regulars until Sunday
// 9:30 PM, then open to all · you are #2 among regulars", "RSVPs lock at
// 7:30 PM"), the organiser form's previews, and the form's own units (hours
// before puck drop, a clock time for the game-day check) against the wire's
// minutes. Pure: the time, the rink's zone and the device's zone come in,
// so every sentence is tested on a fixed clock.

import type { EventRsvpRules, EventViewer, RsvpRulesInput } from '../../../lib/api-types';
import { dayKey, deviceZone, formatIn, shownZone, wallClock, zoneLabel } from '../../../lib/time-zone';

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

/** The late window the server counts when the rule is off (24 h). */
export const DEFAULT_LATE_WINDOW_MINUTES = DAY_MINUTES;
/** The server's bounds, in minutes before the start (docs/pickup-night.md › RSVP rules). */
export const MAX_WINDOW_MINUTES = 14 * DAY_MINUTES;
export const MAX_CUTOFF_MINUTES = 7 * DAY_MINUTES;
export const MAX_MINIMUM = 500;

/** The whole rules form, off = null; what a PUT sends. */
export const NO_RULES: RsvpRulesInput = {
  lateWindowMinutes: null,
  regularsFirstMinutes: null,
  cutoffMinutes: null,
  minSkaters: null,
  minGoalies: null,
  shortCheckMinutes: null,
};

// ── Moments on the rink's clock ───────────────────────────────────────────

const dayNumber = (key: string) => Date.parse(`${key}T00:00:00Z`) / 86_400_000;

/** Where a moment falls against today, on the rink's calendar. */
function when(ms: number, zone: string, now: number): { time: string; day: 'today' | 'week' | 'far'; weekday: string; date: string } {
  const time = formatIn(ms, zone, { hour: 'numeric', minute: '2-digit' }, 'en-US');
  const weekday = formatIn(ms, zone, { weekday: 'long' }, 'en-US');
  const date = formatIn(ms, zone, { weekday: 'short', month: 'short', day: 'numeric' }, 'en-US');
  const diff = Math.abs(dayNumber(dayKey(ms, zone)) - dayNumber(dayKey(now, zone)));
  return { time, weekday, date, day: diff === 0 ? 'today' : diff < 7 ? 'week' : 'far' };
}

/**
 * A moment as a person reads it: "7:30 PM" today, "Sunday 9:30 PM" within
 * the week, "Sun, Dec 6, 9:30 PM" further off; on the rink's clock, with
 * the zone's name when the device reads another ("7:30 PM EST").
 */
export function momentText(iso: string, rinkZone: string | null, now: number, device: string = deviceZone()): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const zone = shownZone(rinkZone, device);
  const w = when(ms, zone, now);
  const label = zoneLabel(ms, rinkZone, device);
  const text = w.day === 'today' ? w.time : w.day === 'week' ? `${w.weekday} ${w.time}` : `${w.date}, ${w.time}`;
  return label ? `${text} ${label}` : text;
}

/** The same moment after a verb: "at 7:30 PM", "Sunday at 9:30 PM", "on Sun, Dec 6 at 9:30 PM". */
export function atMoment(iso: string, rinkZone: string | null, now: number, device: string = deviceZone()): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const zone = shownZone(rinkZone, device);
  const w = when(ms, zone, now);
  const label = zoneLabel(ms, rinkZone, device);
  const time = label ? `${w.time} ${label}` : w.time;
  return w.day === 'today' ? `at ${time}` : w.day === 'week' ? `${w.weekday} at ${time}` : `on ${w.date} at ${time}`;
}

/** The instant `minutes` before `startIso`, as RFC 3339. */
export function minutesBefore(startIso: string, minutes: number): string {
  return new Date(Date.parse(startIso) - minutes * MINUTE_MS).toISOString();
}

// ── What everyone reads ───────────────────────────────────────────────────

/** RSVPs are locked now (the cut-off has passed). */
export function isLocked(rules: Pick<EventRsvpRules, 'closesAt'> | null | undefined, now: number): boolean {
  const at = rules?.closesAt ? Date.parse(rules.closesAt) : NaN;
  return !Number.isNaN(at) && now >= at;
}

/** The places are still the regulars' (the window is open). */
export function regularsFirstNow(rules: Pick<EventRsvpRules, 'openToAllAt'> | null | undefined, now: number): boolean {
  const at = rules?.openToAllAt ? Date.parse(rules.openToAllAt) : NaN;
  return !Number.isNaN(at) && now < at;
}

/** A new request to join is refused: the lock has passed, and I am neither in nor an organiser. */
export function joinLocked(rules: Pick<EventRsvpRules, 'closesAt'> | null | undefined, viewer: Pick<EventViewer, 'isOrganiser'> | null | undefined, now: number): boolean {
  return isLocked(rules, now) && !viewer?.isOrganiser;
}

export interface RulesNotice {
  kind: 'regulars' | 'lock';
  /** `closed`: the lock has passed; the others are ahead of time. */
  tone: 'info' | 'closed';
  text: string;
}

export interface RulesNoticeInputs {
  rules: EventRsvpRules | null | undefined;
  /** My standing as the page shows it (the newest source), and the event's viewer block. */
  status: EventViewer['status'];
  waitlistRank: number | null;
  isRegular: boolean;
  isOrganiser: boolean;
  now: number;
  rinkZone: string | null;
  device?: string;
}

/**
 * The rules in plain words for the RSVP panel: the regulars' window while
 * it is open (with where I stand in it), and the lock, before and after.
 * Nothing when the rules are off.
 */
export function rulesNotices({ rules, status, waitlistRank, isRegular, isOrganiser, now, rinkZone, device = deviceZone() }: RulesNoticeInputs): RulesNotice[] {
  if (!rules) return [];
  const notices: RulesNotice[] = [];
  const placed = status === 'ATTENDING' || status === 'WAITLISTED';
  // Locked out, the regulars' window is nothing to me: the lock says it all.
  const lockedOut = isLocked(rules, now) && !placed && !isOrganiser;
  if (rules.openToAllAt && regularsFirstNow(rules, now) && !lockedOut) {
    let text = `Regulars until ${momentText(rules.openToAllAt, rinkZone, now, device)}, then open to all`;
    if (status === 'WAITLISTED' && waitlistRank) {
      text += isRegular ? ` · you are #${waitlistRank} among regulars` : ` · you are #${waitlistRank} in line; regulars go first until then`;
    } else if (!placed) {
      text += isRegular ? " · you're a regular, so a free place is yours now" : ' · until then you join the waitlist, behind the regulars';
    } else if (isRegular) {
      text += " · you're a regular";
    }
    notices.push({ kind: 'regulars', tone: 'info', text });
  }
  if (rules.closesAt) {
    const at = atMoment(rules.closesAt, rinkZone, now, device);
    if (!isLocked(rules, now)) {
      notices.push({ kind: 'lock', tone: 'info', text: `RSVPs lock ${at}` });
    } else {
      const rest = placed ? 'you can still drop out' : isOrganiser ? 'as an organiser you can still answer' : 'ask the organiser';
      notices.push({ kind: 'lock', tone: 'closed', text: `RSVPs closed ${at} — ${rest}` });
    }
  }
  return notices;
}

// ── The organiser's form ──────────────────────────────────────────────────

/** Minutes as the form's hours ("24", "1.5", "" when off). */
export function hoursInput(minutes: number | null): string {
  if (minutes === null) return '';
  return String(Math.round((minutes / 60) * 100) / 100);
}

export type Parsed = { value: number | null } | { error: string };

/** Hours typed in the form → whole minutes (blank = off), within `maxMinutes`. */
export function parseHours(raw: string, maxMinutes: number): Parsed {
  const t = raw.trim().replace(',', '.');
  if (t === '') return { value: null };
  if (!/^\d+(\.\d+)?$/.test(t)) return { error: 'A number of hours, like 2 or 1.5; blank for off.' };
  const minutes = Math.round(Number(t) * 60);
  if (minutes > maxMinutes) return { error: `At most ${hoursInput(maxMinutes)} hours (${maxMinutes / DAY_MINUTES} days).` };
  return { value: minutes };
}

/** A minimum number of players (blank = no minimum). */
export function parseMinimum(raw: string): Parsed {
  const t = raw.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return { error: 'A whole number; blank for no minimum.' };
  const n = Number(t);
  if (n > MAX_MINIMUM) return { error: `At most ${MAX_MINIMUM}.` };
  return { value: n };
}

/** Minutes past midnight of an instant on a zone's clock. */
function clockMinutes(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  return w ? w.hour * 60 + w.minute : 0;
}

/**
 * The game-day check's clock time ("10:00", as `<input type=time>` gives
 * it) → minutes before puck drop: that time on the day of the game, or the
 * day before when it is later than the start ("22:00" for a 9:30 PM start
 * is the night before). Null for a blank or malformed time.
 */
export function checkMinutesFromClock(startIso: string, clock: string, rinkZone: string | null, device: string = deviceZone()): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(clock.trim());
  const start = Date.parse(startIso);
  if (!m || Number.isNaN(start)) return null;
  const at = Number(m[1]) * 60 + Number(m[2]);
  if (at >= DAY_MINUTES) return null;
  const diff = clockMinutes(start, shownZone(rinkZone, device)) - at;
  return diff < 0 ? diff + DAY_MINUTES : diff;
}

/** The other way: minutes before puck drop → "HH:MM" on the rink's clock ("" when off). */
export function clockFromCheckMinutes(startIso: string, minutes: number | null, rinkZone: string | null, device: string = deviceZone()): string {
  const start = Date.parse(startIso);
  if (minutes === null || Number.isNaN(start)) return '';
  const at = clockMinutes(start - minutes * MINUTE_MS, shownZone(rinkZone, device));
  return `${String(Math.floor(at / 60)).padStart(2, '0')}:${String(at % 60).padStart(2, '0')}`;
}

export interface RulesDraft {
  lateWindow: string;
  regularsFirst: string;
  cutoff: string;
  minSkaters: string;
  minGoalies: string;
  /** "HH:MM", or "" for no game-day check. */
  checkAt: string;
}

export function draftFromRules(rules: RsvpRulesInput, startIso: string | null, rinkZone: string | null, device: string = deviceZone()): RulesDraft {
  return {
    lateWindow: hoursInput(rules.lateWindowMinutes),
    regularsFirst: hoursInput(rules.regularsFirstMinutes),
    cutoff: hoursInput(rules.cutoffMinutes),
    minSkaters: rules.minSkaters === null ? '' : String(rules.minSkaters),
    minGoalies: rules.minGoalies === null ? '' : String(rules.minGoalies),
    checkAt: startIso ? clockFromCheckMinutes(startIso, rules.shortCheckMinutes, rinkZone, device) : '',
  };
}

export type RulesErrors = Partial<Record<keyof RsvpRulesInput, string>>;

/**
 * The draft as the wire's minutes, or the errors to show beside each field
 * (named as the server names them, so a 422's details land in the same
 * place). `startIso`: the start the check time is counted back from.
 */
export function rulesFromDraft(d: RulesDraft, startIso: string | null, rinkZone: string | null, device: string = deviceZone()): { rules: RsvpRulesInput } | { errors: RulesErrors } {
  const errors: RulesErrors = {};
  const take = (key: keyof RsvpRulesInput, p: Parsed): number | null => {
    if ('error' in p) {
      errors[key] = p.error;
      return null;
    }
    return p.value;
  };
  const rules: RsvpRulesInput = {
    lateWindowMinutes: take('lateWindowMinutes', parseHours(d.lateWindow, MAX_WINDOW_MINUTES)),
    regularsFirstMinutes: take('regularsFirstMinutes', parseHours(d.regularsFirst, MAX_WINDOW_MINUTES)),
    cutoffMinutes: take('cutoffMinutes', parseHours(d.cutoff, MAX_CUTOFF_MINUTES)),
    minSkaters: take('minSkaters', parseMinimum(d.minSkaters)),
    minGoalies: take('minGoalies', parseMinimum(d.minGoalies)),
    shortCheckMinutes: null,
  };
  if (d.checkAt.trim() !== '') {
    const minutes = startIso ? checkMinutesFromClock(startIso, d.checkAt, rinkZone, device) : null;
    if (minutes === null) errors.shortCheckMinutes = 'A time like 10:00 AM; blank for no check.';
    else if (rules.minSkaters === null && rules.minGoalies === null && !errors.minSkaters && !errors.minGoalies) errors.shortCheckMinutes = 'Set a minimum of skaters or goalies for the check to look at.';
    else rules.shortCheckMinutes = minutes;
  }
  return Object.keys(errors).length > 0 ? { errors } : { rules };
}

export const sameRules = (a: RsvpRulesInput, b: RsvpRulesInput) => (Object.keys(NO_RULES) as Array<keyof RsvpRulesInput>).every((k) => a[k] === b[k]);

/**
 * What the rules will do for the event starting at `startIso`, a line each,
 * as the form previews them: "Opens to all Sunday 9:30 PM", "RSVPs lock
 * Tuesday at 7:30 PM", "Dropping out after Monday 9:30 PM counts as late",
 * "Game-day check Tuesday at 10:00 AM: below 10 skaters or 2 goalies it
 * calls for subs".
 */
export function rulesPreview(rules: RsvpRulesInput, startIso: string, rinkZone: string | null, now: number, device: string = deviceZone()): string[] {
  const at = (m: number) => minutesBefore(startIso, m);
  const lines: string[] = [];
  if (rules.regularsFirstMinutes !== null) lines.push(`Opens to all ${momentText(at(rules.regularsFirstMinutes), rinkZone, now, device)}`);
  if (rules.cutoffMinutes !== null) lines.push(`RSVPs lock ${atMoment(at(rules.cutoffMinutes), rinkZone, now, device)}`);
  lines.push(`Dropping out after ${momentText(at(rules.lateWindowMinutes ?? DEFAULT_LATE_WINDOW_MINUTES), rinkZone, now, device)} counts as late`);
  if (rules.shortCheckMinutes !== null && (rules.minSkaters !== null || rules.minGoalies !== null)) {
    const short = [rules.minSkaters !== null ? `${rules.minSkaters} ${rules.minSkaters === 1 ? 'skater' : 'skaters'}` : null, rules.minGoalies !== null ? `${rules.minGoalies} ${rules.minGoalies === 1 ? 'goalie' : 'goalies'}` : null]
      .filter(Boolean)
      .join(' or ');
    lines.push(`Game-day check ${atMoment(at(rules.shortCheckMinutes), rinkZone, now, device)}: below ${short} it calls for subs`);
  }
  return lines;
}
