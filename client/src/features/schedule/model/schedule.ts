// How schedule items read: my standing in words, times in the rink's own
// zone (named when it is not the browser's), and the days of a week.

import type { ScheduleItem, ScheduleState } from '../../../lib/api-types';
import { answerPath } from '../../../lib/availability';
import { dayKey, deviceZone, formatIn, shownZone, zoneLabel } from '../../../lib/time-zone';

/**
 * "In", "Waitlist #2", "Not answered"…; null where there is nothing to say
 * (public views). A native league game says my availability the same way
 * (docs/availability.md › My schedule). A cancelled event is never "In"
 * (issue 26): it says what the answer was ("Was in"), in the muted tone of
 * [`stateTone`].
 */
export function stateLabel(item: Pick<ScheduleItem, 'myState' | 'waitlistRank' | 'status'>): string | null {
  if (item.status === 'CANCELLED' && item.myState === 'ATTENDING') return 'Was in';
  if (item.status === 'CANCELLED' && item.myState === 'WAITLISTED') return 'Was waitlisted';
  switch (item.myState) {
    case 'ATTENDING':
      return 'In';
    case 'WAITLISTED':
      return item.waitlistRank ? `Waitlist #${item.waitlistRank}` : 'Waitlist';
    case 'DECLINED':
      return 'Out';
    case 'NOT_ANSWERED':
      return 'Not answered';
    default:
      return null;
  }
}

export type StateTone = 'in' | 'wait' | 'out' | 'ask';

/** The colour of a standing; a cancelled item's is never green ("in") or amber ("wait"). */
export function stateTone(state: ScheduleState, status?: ScheduleItem['status']): StateTone {
  if (status === 'CANCELLED' && (state === 'ATTENDING' || state === 'WAITLISTED')) return 'out';
  return ({ ATTENDING: 'in', WAITLISTED: 'wait', DECLINED: 'out', NOT_ANSWERED: 'ask' } as const)[state];
}

export type Answer = 'ATTENDING' | 'DECLINED';

/** A game or event that will not be played (as it stands) or is over: nothing to answer. */
const NOT_ANSWERABLE: ReadonlySet<string> = new Set(['CANCELLED', 'POSTPONED', 'FINAL']);

/**
 * The one-tap answers an item offers: an event of mine, or a native league
 * game of a roster I play on (my availability), not cancelled and not over.
 */
export function answersFor(item: ScheduleItem, now: Date = new Date()): Answer[] {
  if (!item.myState || NOT_ANSWERABLE.has(item.status)) return [];
  if (item.kind === 'GAME' && !item.rosterId) return [];
  if (new Date(item.endsAt).getTime() < now.getTime()) return [];
  switch (item.myState) {
    case 'NOT_ANSWERED':
      return ['ATTENDING', 'DECLINED'];
    case 'ATTENDING':
    case 'WAITLISTED':
      return ['DECLINED'];
    case 'DECLINED':
      return ['ATTENDING'];
    default:
      return [];
  }
}

/** The label of an answer button, for the state it leaves. */
export function answerLabel(answer: Answer, from: ScheduleState | null): string {
  if (answer === 'ATTENDING') return "I'm in";
  return from === 'WAITLISTED' ? 'Leave waitlist' : "Can't go";
}

/** The request one tap makes: where it goes and what it says. */
export interface AnswerCall {
  path: string;
  body: { action: Answer } | { answer: 'IN' | 'OUT' };
  /** Sent with an Idempotency-Key: an RSVP (a command the server applies once); an availability answer is a plain idempotent PUT. */
  keyed: boolean;
}

/**
 * Where an answer goes, by kind: an event's is my RSVP; a native game's is
 * my availability on the roster the item names (docs/availability.md ›
 * Answering). The rest of the tap (the button, the reload) is the same.
 */
export function answerCall(item: Pick<ScheduleItem, 'kind' | 'id' | 'rosterId'>, answer: Answer, myId: string): AnswerCall {
  const enc = encodeURIComponent;
  if (item.kind === 'GAME' && item.rosterId) {
    return { path: answerPath(item.rosterId, item.id, myId), body: { answer: answer === 'ATTENDING' ? 'IN' : 'OUT' }, keyed: false };
  }
  return { path: `/events/${enc(item.id)}/rsvp`, body: { action: answer }, keyed: true };
}

/** The zone an item's times are shown in: the rink's, else the browser's. */
export function itemZone(item: Pick<ScheduleItem, 'timeZone'>, local: string = deviceZone()): string {
  return shownZone(item.timeZone, local);
}

export interface ZonedWhen {
  /** "Tue, Nov 24". */
  day: string;
  /** "9:30 PM". */
  time: string;
  /** The zone's short name when it is not the browser's clock ("EST"), else null. */
  zone: string | null;
  /** `YYYY-MM-DD` of the day at the rink (for grouping). */
  dayKey: string;
}

/** When an item starts, on the rink's clock. */
export function zonedWhen(item: Pick<ScheduleItem, 'startsAt' | 'timeZone'>, local: string = deviceZone()): ZonedWhen {
  const ms = Date.parse(item.startsAt);
  const zone = itemZone(item, local);
  return {
    day: formatIn(ms, zone, { weekday: 'short', month: 'short', day: 'numeric' }),
    time: formatIn(ms, zone, { hour: 'numeric', minute: '2-digit' }),
    zone: zoneLabel(ms, zone, local),
    dayKey: dayKey(ms, zone),
  };
}

/** Local midnight of the Monday of the week `d` is in. */
export function startOfWeek(d: Date): Date {
  const monday = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const back = (monday.getDay() + 6) % 7;
  monday.setDate(monday.getDate() - back);
  return monday;
}

export function addDays(d: Date, n: number): Date {
  const out = new Date(d);
  out.setDate(out.getDate() + n);
  return out;
}

export interface WeekDay {
  /** `YYYY-MM-DD` in the browser's zone. */
  key: string;
  date: Date;
  items: ScheduleItem[];
}

/**
 * The seven days from `monday`, each with the items on that day: the rink's
 * day for items at a rink (a 23:30 game at the rink is that evening's game
 * wherever the viewer is), the browser's for the others.
 */
export function weekDays(items: ScheduleItem[], monday: Date, local: string = deviceZone()): WeekDay[] {
  const days: WeekDay[] = [];
  for (let i = 0; i < 7; i += 1) {
    const date = addDays(monday, i);
    days.push({ key: dayKey(date.getTime() + 12 * 60 * 60 * 1000, local), date, items: [] });
  }
  for (const item of items) {
    const key = zonedWhen(item, local).dayKey;
    days.find((d) => d.key === key)?.items.push(item);
  }
  return days;
}

/** "Blue Liners 3 – 2 Rivals" for a game with a score, else null. */
export function scoreLine(item: ScheduleItem): string | null {
  if (item.status !== 'LIVE' && item.status !== 'FINAL') return null;
  if (item.homeScore === null || item.awayScore === null) return null;
  return `${item.homeName ?? 'Home'} ${item.homeScore} – ${item.awayScore} ${item.awayName ?? 'Away'}`;
}
