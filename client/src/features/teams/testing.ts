// Test data for the team feature's tests (only tests import it).

import type { RosterSummary, SeasonDetail, TeamPage } from '../../lib/api-types';
import { makeTeam } from '../../testing/fixtures';

const NOW = '2026-11-01T18:00:00.000Z';

export function makeTeamPage(over: Partial<TeamPage> = {}): TeamPage {
  return { ...makeTeam(), facilityName: null, managers: [], rosters: [], viewerRole: null, ...over };
}

export function makeRosterSummary(over: Partial<RosterSummary> = {}): RosterSummary {
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
    memberCount: 0,
    wins: 0,
    losses: 0,
    ties: 0,
    points: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export function makeSeasonOption(over: Partial<SeasonDetail> = {}): SeasonDetail {
  return {
    id: 's-1',
    facilityId: 'f-1',
    facilityName: 'Lakeside Ice',
    name: 'Winter 2026',
    startDate: '2026-09-01T04:00:00Z',
    endDate: '2027-04-01T03:59:59Z',
    isActive: false,
    syncUrl: null,
    syncEnabled: false,
    lastSyncAt: null,
    nextSyncAt: null,
    lastSync: null,
    createdAt: NOW,
    updatedAt: NOW,
    viewerCanEdit: false,
    ...over,
  };
}
