// Test data for the season feature's tests (only tests import it).

import type { DivisionMapping, DivisionScaleLevel, SeasonDetail } from '../../lib/api-types';

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
