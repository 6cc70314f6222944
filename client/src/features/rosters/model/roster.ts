// Pure rules of the roster page: which copy of the roster is newest, where
// the viewer stands, how players sort, and which field a server refusal
// belongs beside.

import type { RequestStatus, Roster, RosterDocument, RosterPlayer } from '../../../lib/api-types';

/**
 * The newest of the REST read and the pushed document, by the topic's seq
 * (the roster's `updated_at`, bumped by every write). Equal seqs are the same
 * state; the REST copy then wins because it carries the viewer block too.
 */
export function newestRoster(rest: Roster, pushed: RosterDocument | null): RosterDocument {
  return pushed && pushed.seq > rest.seq ? pushed : rest;
}

export type Standing =
  | { kind: 'member'; player: RosterPlayer; approved: boolean }
  | { kind: 'pending'; requestId: string }
  | { kind: 'rejected'; requestId: string }
  | { kind: 'none' };

/** Where the viewer stands, from the document alone (so it follows pushes). */
export function standingOf(doc: RosterDocument, userId: string): Standing {
  const player = doc.players.find((p) => p.userId === userId);
  // Requests come newest first: the first one of mine is my latest.
  const latest = doc.requests.find((r) => r.userId === userId);
  if (player) return { kind: 'member', player, approved: latest?.status === 'APPROVED' };
  if (latest?.status === 'PENDING') return { kind: 'pending', requestId: latest.id };
  if (latest?.status === 'REJECTED') return { kind: 'rejected', requestId: latest.id };
  return { kind: 'none' };
}

/** The ids of pending requests, as one string that changes when the queue does. */
export function pendingKey(doc: RosterDocument): string {
  return doc.requests
    .filter((r) => r.status === 'PENDING')
    .map((r) => r.id)
    .sort()
    .join(',');
}

export function pendingCount(doc: RosterDocument): number {
  return doc.requests.filter((r) => r.status === 'PENDING').length;
}

export function isFull(doc: Pick<RosterDocument, 'maxMembers' | 'memberCount'>): boolean {
  return doc.maxMembers !== null && doc.memberCount >= doc.maxMembers;
}

export type SortKey = 'number' | 'name' | 'position' | 'gamesPlayed' | 'goals' | 'assists' | 'points' | 'penaltyMinutes';

const POSITION_ORDER = ['CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE', 'GOALIE'];

function nameOf(p: RosterPlayer): string {
  const full = [p.user.firstName, p.user.lastName].filter(Boolean).join(' ').trim();
  return (full || p.user.username || '').toLowerCase();
}

/**
 * Players in display order. Numbers and names ascend; stats descend (the
 * leader first). Ties fall back to the jersey number, then the name, so the
 * order never jumps between renders.
 */
export function sortPlayers(players: RosterPlayer[], key: SortKey): RosterPlayer[] {
  const byNumber = (a: RosterPlayer, b: RosterPlayer) => (a.jerseyNumber ?? 1000) - (b.jerseyNumber ?? 1000);
  const byName = (a: RosterPlayer, b: RosterPlayer) => nameOf(a).localeCompare(nameOf(b));
  const stable = (a: RosterPlayer, b: RosterPlayer) => byNumber(a, b) || byName(a, b) || a.userId.localeCompare(b.userId);
  const primary: Record<SortKey, (a: RosterPlayer, b: RosterPlayer) => number> = {
    number: () => 0,
    name: byName,
    position: (a, b) => (a.position ? POSITION_ORDER.indexOf(a.position) : 99) - (b.position ? POSITION_ORDER.indexOf(b.position) : 99),
    gamesPlayed: (a, b) => b.gamesPlayed - a.gamesPlayed,
    goals: (a, b) => b.goals - a.goals,
    assists: (a, b) => b.assists - a.assists,
    points: (a, b) => b.points - a.points || b.goals - a.goals,
    penaltyMinutes: (a, b) => b.penaltyMinutes - a.penaltyMinutes,
  };
  return [...players].sort((a, b) => primary[key](a, b) || stable(a, b));
}

/** "C", "A" or null. */
export function letterOf(p: Pick<RosterPlayer, 'captain' | 'alternateCaptain'>): 'C' | 'A' | null {
  if (p.captain) return 'C';
  if (p.alternateCaptain) return 'A';
  return null;
}

/** The field a roster refusal (409 code) is about, to show it beside that field. */
export const CONFLICT_FIELDS: Record<string, string> = {
  jersey_taken: 'jerseyNumber',
  captain_taken: 'letter',
  alternate_captains_full: 'letter',
  already_on_roster: 'userId',
  max_members_below_roster: 'maxMembers',
};

export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  PENDING: 'Pending',
  APPROVED: 'Approved',
  REJECTED: 'Declined',
};
