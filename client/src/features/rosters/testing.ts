// Test data for the roster feature's tests (not shipped: only tests import it).

import type { JoinRequest, Roster, RosterPlayer, RosterViewer } from '../../lib/api-types';

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
