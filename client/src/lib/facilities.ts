// A facility (rink) as every screen reads it: one cache key per rink
// (`['facilities', id]`, the org page's key, so an edit on the facility page
// lands where the event card reads the rink's name) and one type, the
// page the server answers (`FacilityPage`). Also the rink's zone, for
// lib/time-zone.ts, and the pickers that search facilities or list a rink's
// seasons.

import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { Facility, FacilityPage, Page, SeasonDetail } from './api-types';
import { orgKeys } from './orgs';

const enc = encodeURIComponent;

/**
 * How long a screen that shows a rink's name or reads its zone trusts what
 * is cached: they rarely change, and every event card asks.
 */
const FACILITY_STALE_MS = 5 * 60_000;

export interface FacilityReadOptions {
  /** Read without a token: the arena displays run signed out. */
  anonymous?: boolean;
  /**
   * The app's default staleness instead of five minutes: the facility's own
   * pages, where managers, role and follow state show and change.
   */
  fresh?: boolean;
}

/** The query of one facility: its cache key, its fetch and its staleness. */
export function facilityQuery(id: string, opts: FacilityReadOptions = {}) {
  return {
    queryKey: orgKeys.detail('facilities', id),
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<FacilityPage>(`/facilities/${enc(id)}`, { signal, anonymous: opts.anonymous }),
    ...(opts.fresh ? {} : { staleTime: FACILITY_STALE_MS }),
  };
}

/** One facility; idle without an id. */
export function useFacility(id: string | null, opts: FacilityReadOptions = {}) {
  return useQuery({ ...facilityQuery(id ?? '', opts), enabled: Boolean(id) });
}

/** The IANA zone of a rink; null without one, or until it is read. */
export function useRinkZone(facilityId: string | null): string | null {
  return useFacility(facilityId).data?.timezone ?? null;
}

/** The zones of several rinks, by facility id (those read so far). */
export function useRinkZones(facilityIds: Array<string | null>): Map<string, string> {
  const ids = [...new Set(facilityIds.filter((id): id is string => Boolean(id)))];
  const facilities = useQueries({ queries: ids.map((id) => facilityQuery(id)) });
  const zones = new Map<string, string>();
  ids.forEach((id, i) => {
    const zone = facilities[i]?.data?.timezone;
    if (zone) zones.set(id, zone);
  });
  return zones;
}

/** Facilities matching a picker's text (the first ten, by name). */
export function useFacilityOptions(q: string) {
  return useQuery({
    queryKey: [...orgKeys.search('facilities', q), 'picker'],
    queryFn: ({ signal }) => api.get<Page<Facility>>('/facilities', { signal, query: { q, limit: 10 } }),
    placeholderData: keepPreviousData,
  });
}

/** A rink's seasons (latest first, one page of 50), for a picker. */
export function useFacilitySeasonOptions(facilityId: string | null) {
  return useQuery({
    queryKey: ['facilities', facilityId ?? '', 'seasons', 'picker'],
    queryFn: ({ signal }) => api.get<Page<SeasonDetail>>(`/facilities/${enc(facilityId ?? '')}/seasons`, { signal, query: { limit: 50 } }),
    enabled: Boolean(facilityId),
  });
}
