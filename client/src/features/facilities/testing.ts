// Test data for the facility feature's tests (only tests import it).

import type { FacilityPage, SeasonDetail } from '../../lib/api-types';
import { makeFacility } from '../../testing/fixtures';

const NOW = '2026-11-01T18:00:00.000Z';

export function makeFacilityPage(over: Partial<FacilityPage> = {}): FacilityPage {
  return { ...makeFacility(), managers: [], seasons: [], viewerRole: null, ...over };
}

export function makeSeason(over: Partial<SeasonDetail> = {}): SeasonDetail {
  return {
    id: 's-1',
    facilityId: 'f-1',
    facilityName: 'Lakeside Ice',
    name: 'Winter 2026',
    startDate: '2026-09-01T05:00:00Z',
    endDate: '2027-04-01T04:59:59Z',
    isActive: true,
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
