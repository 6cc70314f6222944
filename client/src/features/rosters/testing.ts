// Test data for the roster feature's tests (not shipped: only tests import it).

import type { AvailabilityBoard, AvailabilityCounts, AvailabilityGroup, AvailabilityPlayer, GameAvailability, JoinRequest, Roster, RosterPlayer, RosterViewer } from '../../lib/api-types';

const NOW = '2026-11-01T18:00:00.000Z';

export function makePlayer(over: Partial<RosterPlayer> = {}): RosterPlayer {
  const userId = over.userId ?? 'u-bob';
  return {
    userId,
    user: { id: userId, username: userId.replace(/^u-/, ''), firstName: null, lastName: null, profileImage: null },
    jerseyNumber: null,
    position: null,
    commitmentLevel: 'FULL_TIME',
    captain: false,
    alternateCaptain: false,
    goals: 0,
    assists: 0,
    penaltyMinutes: 0,
    gamesPlayed: 0,
    points: 0,
    joinedAt: NOW,
    ...over,
  };
}

export function makeRosterViewer(over: Partial<RosterViewer> = {}): RosterViewer {
  return { isMember: false, canEdit: false, canManagePlayers: false, canDecideRequests: false, pendingRequestId: null, ...over };
}

export function makeRoster(over: Partial<Roster> = {}): Roster {
  return {
    id: 'r-1',
    name: 'Frozen Assets',
    description: null,
    teamId: 't-1',
    teamName: 'Frozen Assets',
    seasonId: 's-1',
    seasonName: 'Winter 2026',
    seasonStartDate: '2026-09-01T04:00:00Z',
    seasonIsActive: true,
    facilityId: 'f-1',
    facilityName: 'Lakeside Ice',
    status: 'ACTIVE',
    divisionMappingId: null,
    division: null,
    maxMembers: null,
    memberCount: (over.players ?? []).length,
    wins: 0,
    losses: 0,
    ties: 0,
    points: 0,
    createdAt: NOW,
    updatedAt: NOW,
    seq: 100,
    players: [],
    requests: [],
    viewer: makeRosterViewer(),
    ...over,
  };
}

export function makeJoinRequest(over: Partial<JoinRequest> = {}): JoinRequest {
  const userId = over.userId ?? 'u-bob';
  return {
    id: 'q-1',
    rosterId: 'r-1',
    rosterName: 'Frozen Assets',
    teamId: 't-1',
    teamName: 'Frozen Assets',
    seasonId: 's-1',
    seasonName: 'Winter 2026',
    userId,
    user: { id: userId, username: userId.replace(/^u-/, ''), firstName: null, lastName: null, profileImage: null },
    status: 'PENDING',
    message: null,
    preferredPosition: null,
    commitmentLevel: 'FULL_TIME',
    decidedById: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

// ── Availability (docs/availability.md) ──────────────────────────────────

export function makeAvailabilityPlayer(over: Partial<AvailabilityPlayer> = {}): AvailabilityPlayer {
  const userId = over.userId ?? 'u-bob';
  return {
    userId,
    username: userId.replace(/^u-/, ''),
    firstName: null,
    lastName: null,
    profileImage: null,
    position: 'CENTER',
    jerseyNumber: null,
    commitmentLevel: 'FULL_TIME',
    group: 'SKATERS',
    answer: null,
    answeredAt: null,
    late: false,
    ...over,
  };
}

/** The counts the players make (as the server counts them). */
export function countsOf(players: AvailabilityPlayer[]): AvailabilityCounts {
  const counts: AvailabilityCounts = {
    skaters: { in: 0, out: 0, noAnswer: 0 },
    defence: { in: 0, out: 0, noAnswer: 0 },
    goalies: { in: 0, out: 0, noAnswer: 0 },
    subs: { in: 0, out: 0, noAnswer: 0 },
  };
  for (const p of players) {
    const c = counts[p.group.toLowerCase() as AvailabilityGroup];
    if (p.answer === 'IN') c.in += 1;
    else if (p.answer === 'OUT') c.out += 1;
    else c.noAnswer += 1;
  }
  return counts;
}

/** Thursday Nov 26, 2026, 9:30 PM at a Toronto rink, Home vs Bears. */
export function makeGameAvailability(over: Partial<GameAvailability> = {}): GameAvailability {
  const players = over.players ?? [];
  return {
    gameId: 'g-1',
    kind: 'GAME',
    title: 'Frozen Assets vs Bears',
    startsAt: '2026-11-27T02:30:00Z',
    timeZone: 'America/Toronto',
    place: 'Lakeside Ice, Rink B',
    side: 'HOME',
    opponent: 'Bears',
    locksAt: null,
    locked: false,
    counts: countsOf(players),
    short: { skaters: 0, goalies: 0 },
    nudgedAt: null,
    players,
    ...over,
  };
}

export function makeAvailabilityBoard(over: Partial<AvailabilityBoard> = {}): AvailabilityBoard {
  return {
    rosterId: 'r-1',
    rules: { lockMinutes: null, minSkaters: null, minGoalies: null },
    games: [makeGameAvailability()],
    ...over,
  };
}
