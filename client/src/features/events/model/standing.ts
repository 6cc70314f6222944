// Where the viewer stands and what the counts say, derived from whichever
// source is newest: the live attendees document (topic push or REST read),
// the reply to the viewer's own RSVP, or the event's `viewer` block. All
// three carry the same version number (the event's), so "newest" is exact.

import type { EventViewer, HockeyPosition, RsvpStatus } from '../../../lib/api-types';
import { plural } from '../../../lib/format';
import type { AttendeeCounts, AttendeesDoc, RsvpReply, WaitlistEntry } from './types';

export interface Standing {
  status: RsvpStatus | null;
  /** Per-role waitlist rank (1 = next), only when WAITLISTED. */
  rank: number | null;
  /** The position the viewer plays in this event, when known. */
  position: HockeyPosition | null;
  /** Version of the source this came from; -1 when nothing is known. */
  version: number;
  source: 'live' | 'reply' | 'event' | 'none';
}

export interface StandingInputs {
  userId: string;
  doc: AttendeesDoc | null | undefined;
  reply: RsvpReply | null | undefined;
  viewer: EventViewer | null | undefined;
  /** The event's version when `viewer` was computed. */
  eventVersion: number;
}

const NOT_PLACED = new Set<RsvpStatus>(['DECLINED', 'REMOVED']);

export type StandingTone = 'in' | 'waiting' | 'out' | 'open' | 'closed';

/**
 * The RSVP panel's headline. A cancelled event is never "You're in" in
 * green (issue 26): whatever the viewer had answered, it reads "Cancelled"
 * in the closed tone. An event that is over keeps the standing it ended
 * with; answers are closed there too (`closed` without a place).
 */
export function standingHeadline(s: Pick<Standing, 'status' | 'rank'>, { cancelled, over }: { cancelled: boolean; over: boolean }): { tone: StandingTone; title: string } {
  if (cancelled) return { tone: 'closed', title: 'Cancelled' };
  const placed = s.status === 'ATTENDING' || s.status === 'WAITLISTED';
  const { tone, title } = headline(s);
  return { tone: over && !placed ? 'closed' : tone, title };
}

function headline(s: Pick<Standing, 'status' | 'rank'>): { tone: StandingTone; title: string } {
  switch (s.status) {
    case 'ATTENDING':
      return { tone: 'in', title: "You're in" };
    case 'WAITLISTED':
      return { tone: 'waiting', title: s.rank ? `Waitlisted #${s.rank}` : 'Waitlisted' };
    case 'DECLINED':
      return { tone: 'out', title: "You're out" };
    case 'REMOVED':
      return { tone: 'out', title: "You're off the list" };
    default:
      return { tone: 'open', title: 'Are you in?' };
  }
}

export function deriveStanding({ userId, doc, reply, viewer, eventVersion }: StandingInputs): Standing {
  const candidates: Standing[] = [];
  if (viewer) {
    candidates.push({
      status: viewer.status,
      rank: viewer.status === 'WAITLISTED' ? viewer.waitlistRank : null,
      position: viewer.position,
      version: eventVersion,
      source: 'event',
    });
  }
  if (reply) {
    candidates.push({
      status: reply.status,
      rank: reply.status === 'WAITLISTED' ? reply.waitlistRank : null,
      position: null,
      version: reply.version,
      source: 'reply',
    });
  }
  if (doc) {
    const attending = doc.attending.find((a) => a.userId === userId);
    const waiting = doc.waitlist.find((w) => w.userId === userId);
    if (attending) {
      candidates.push({ status: 'ATTENDING', rank: null, position: attending.position, version: doc.version, source: 'live' });
    } else if (waiting) {
      candidates.push({ status: 'WAITLISTED', rank: waiting.rank, position: waiting.position, version: doc.version, source: 'live' });
    } else {
      // The document only lists placed people. Declined and removed look the
      // same in it, so keep whichever of those the other sources last said.
      const known = [reply?.status, viewer?.status].find((s): s is RsvpStatus => !!s && NOT_PLACED.has(s)) ?? null;
      candidates.push({ status: known, rank: null, position: null, version: doc.version, source: 'live' });
    }
  }
  if (candidates.length === 0) return { status: null, rank: null, position: null, version: -1, source: 'none' };

  // Newest wins; on a tie the fuller source wins (live > reply > event).
  const weight = { live: 3, reply: 2, event: 1, none: 0 } as const;
  let best = candidates[0] as Standing;
  for (const c of candidates) {
    if (c.version > best.version || (c.version === best.version && weight[c.source] > weight[best.source])) best = c;
  }
  if (!best.position) {
    // A reply carries no position; borrow it from a source that knows.
    best = { ...best, position: candidates.find((c) => c.position && c.status === best.status)?.position ?? null };
  }
  return best;
}

/** The newer of two attendees documents (either may be missing). */
export function newestDoc(a: AttendeesDoc | null | undefined, b: AttendeesDoc | null | undefined): AttendeesDoc | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return b.version > a.version ? b : a;
}

function limitPart(count: number, max: number | null, one: string): string {
  const noun = plural(max ?? count, one);
  return max === null ? `${count} ${noun}` : `${count}/${max} ${noun}`;
}

/** "9/10 skaters · 1/1 goalie · 4 waiting" (unlimited: "9 skaters"). */
export function countsLine(c: AttendeeCounts): string {
  const parts = [limitPart(c.skaters, c.maxSkaters, 'skater')];
  // An event that takes no goalies and has none does not mention them.
  if (!(c.maxGoalies === 0 && c.goalies === 0)) parts.push(limitPart(c.goalies, c.maxGoalies, 'goalie'));
  const waiting = c.waitlistSkaters + c.waitlistGoalies;
  if (waiting > 0) parts.push(`${waiting} waiting`);
  return parts.join(' · ');
}

export type Role = 'SKATER' | 'GOALIE';

export function roleOf(position: HockeyPosition): Role {
  return position === 'GOALIE' ? 'GOALIE' : 'SKATER';
}

/** Open places for a role: null = unlimited; 0 when full (or over after a lowered limit). */
export function spotsLeft(c: AttendeeCounts, role: Role): number | null {
  const max = role === 'GOALIE' ? c.maxGoalies : c.maxSkaters;
  if (max === null) return null;
  const taken = role === 'GOALIE' ? c.goalies : c.skaters;
  return Math.max(0, max - taken);
}

/** True when a new request for `role` would land on the waitlist. */
export function wouldWaitlist(c: AttendeeCounts, role: Role): boolean {
  const queued = role === 'GOALIE' ? c.waitlistGoalies : c.waitlistSkaters;
  const left = spotsLeft(c, role);
  return queued > 0 || left === 0;
}

/**
 * How many people of `role` wait for a place that an attending player of
 * that role would free by leaving: 0 when nobody waits, or when the role is
 * over its limit (a lowered limit) so that leaving promotes nobody. The
 * "Can't make it" tap asks first when this is above 0: the place goes to
 * the head of the line at once and is not given back.
 */
export function waitingForMyPlace(c: AttendeeCounts, role: Role): number {
  const queued = role === 'GOALIE' ? c.waitlistGoalies : c.waitlistSkaters;
  const max = role === 'GOALIE' ? c.maxGoalies : c.maxSkaters;
  const taken = role === 'GOALIE' ? c.goalies : c.skaters;
  if (queued === 0 || max === null || taken - 1 >= max) return 0;
  return queued;
}

export function waitlistByRole(waitlist: readonly WaitlistEntry[]): { skaters: WaitlistEntry[]; goalies: WaitlistEntry[] } {
  const skaters = waitlist.filter((w) => roleOf(w.position) === 'SKATER').sort((a, b) => a.rank - b.rank);
  const goalies = waitlist.filter((w) => roleOf(w.position) === 'GOALIE').sort((a, b) => a.rank - b.rank);
  return { skaters, goalies };
}

/** "1st", "2nd", "3rd", "11th"… for "3rd in line". */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** Places left per role, as status summaries carry them (null = unlimited). */
export function openPlaces(c: AttendeeCounts): { skaters: number | null; goalies: number | null } {
  return { skaters: spotsLeft(c, 'SKATER'), goalies: spotsLeft(c, 'GOALIE') };
}

/**
 * What a limit below the people already in means, per role, in words
 * ("10 in, 8 skater places: nobody is removed; nobody new gets in until 3
 * leave"). The event actor evicts nobody when a limit is lowered and admits
 * nobody until the count is below it. Empty when no role is over.
 */
export function overLimitNotes(c: Pick<AttendeeCounts, 'skaters' | 'goalies' | 'maxSkaters' | 'maxGoalies'>): string[] {
  const notes: string[] = [];
  for (const [count, max, one] of [
    [c.skaters, c.maxSkaters, 'skater'],
    [c.goalies, c.maxGoalies, 'goalie'],
  ] as const) {
    if (max === null || count <= max) continue;
    const leave = count - max + 1;
    const places = max === 0 ? `no ${one} places` : `${max} ${one} ${max === 1 ? 'place' : 'places'}`;
    const until = max === 0 ? '' : ` until ${leave} ${leave === 1 ? 'leaves' : 'leave'}`;
    notes.push(`${count} in, ${places}: nobody is removed; nobody new gets in${until}.`);
  }
  return notes;
}
