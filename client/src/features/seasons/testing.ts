// Test data for the season feature's tests (only tests import it).

import type { DivisionMapping, DivisionScaleLevel, RosterSummary, SeasonDetail } from '../../lib/api-types';
import type { ExternalGame, ExternalRoster, SyncReport } from './model/sync';

const NOW = '2026-11-01T18:00:00.000Z';

export function makeSeasonDetail(over: Partial<SeasonDetail> = {}): SeasonDetail {
  return {
    id: 's-1',
    facilityId: 'f-1',
    facilityName: 'Lakeside Ice',
    name: 'Winter 2026',
    // Sep 1 to Mar 31 in Toronto.
    startDate: '2026-09-01T04:00:00Z',
    endDate: '2027-04-01T03:59:59Z',
    isActive: true,
    syncUrl: null,
    syncEnabled: false,
    lastSyncAt: null,
    nextSyncAt: null,
    lastSync: null,
    createdAt: NOW,
    updatedAt: NOW,
    viewerCanEdit: false,
    divisionMappings: [],
    ...over,
  };
}

export function makeMapping(over: Partial<DivisionMapping> = {}): DivisionMapping {
  return {
    id: 'm-1',
    seasonId: 's-1',
    facilityDivisionName: 'C2',
    universalDivisionScale: 'INTERMEDIATE',
    level: 5,
    description: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...over,
  };
}

export const SCALE: DivisionScaleLevel[] = [
  { value: 'LEARN_TO_PLAY', name: 'Learn to Play', level: 1, description: 'New to skating.' },
  { value: 'BEGINNER', name: 'Beginner', level: 2, description: 'Can skate and stop.' },
  { value: 'NOVICE', name: 'Novice', level: 3, description: 'Knows the rules.' },
  { value: 'RECREATIONAL', name: 'Recreational', level: 4, description: 'Beer league.' },
  { value: 'INTERMEDIATE', name: 'Intermediate', level: 5, description: 'Solid skaters.' },
  { value: 'ADVANCED', name: 'Advanced', level: 6, description: 'Ex-competitive.' },
  { value: 'COMPETITIVE', name: 'Competitive', level: 7, description: 'Fast and physical.' },
  { value: 'ELITE', name: 'Elite', level: 8, description: 'Junior and up.' },
];

export function makeReport(over: Partial<SyncReport> = {}): SyncReport {
  return {
    id: 'run-1',
    trigger: 'MANUAL',
    ok: true,
    format: 'CSV',
    rosters: { created: 8, updated: 0, matched: 6, unmatched: 2 },
    games: { created: 40, updated: 0, unchanged: 0, removed: 0 },
    events: { created: 30, updated: 0 },
    errors: [],
    statements: 212,
    startedAt: '2026-11-24T14:00:00.000Z',
    finishedAt: '2026-11-24T14:00:02.400Z',
    error: null,
    ...over,
  };
}

/** A run that failed: `ok: false`, its reason, zero counts. */
export function makeFailedRun(over: Partial<SyncReport> = {}): SyncReport {
  return makeReport({
    id: 'run-failed',
    ok: false,
    format: null,
    rosters: { created: 0, updated: 0, matched: 0, unmatched: 0 },
    games: { created: 0, updated: 0, unchanged: 0, removed: 0 },
    events: { created: 0, updated: 0 },
    error: { code: 'too_slow', message: 'the schedule did not arrive within 10 s' },
    ...over,
  });
}

export function makeExternalRoster(over: Partial<ExternalRoster> & { id: string; name: string }): ExternalRoster {
  return {
    externalId: over.name.toLowerCase(),
    originalDivision: 'Adult D',
    url: null,
    isMatched: false,
    teamId: null,
    teamName: null,
    divisionMappingId: null,
    matchSource: null,
    claim: null,
    suggestions: [],
    ...over,
  };
}

export function makeExternalGame(over: Partial<ExternalGame> & { id: string }): ExternalGame {
  return {
    externalId: over.id,
    dateTime: '2026-11-25T01:30:00Z',
    rink: 'Rink A',
    homeGoals: null,
    awayGoals: null,
    gameType: 'Regular Season',
    homeRosterId: null,
    awayRosterId: null,
    eventId: null,
    homeName: 'Blue Liners',
    awayName: 'Top Shelf',
    removed: false,
    ...over,
  };
}

export function makeRosterSummary(over: Partial<RosterSummary> & { id: string; teamId: string; teamName: string }): RosterSummary {
  return {
    name: over.teamName,
    description: null,
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
