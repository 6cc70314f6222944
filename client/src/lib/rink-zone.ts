// The zone of a rink, read from its facility (one cached query per rink,
// shared with every screen that reads the facility): what lib/rink-time.ts
// formats times in.

import { useQueries, useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { Facility } from './api-types';

/** The query of one facility: its cache key, its fetch, kept fresh for five minutes. */
export function facilityQuery(id: string) {
  return {
    queryKey: ['facilities', id],
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Facility>(`/facilities/${encodeURIComponent(id)}`, { signal }),
    staleTime: 5 * 60_000,
  };
}

/** The IANA zone of a rink; null without one, or until it is read. */
export function useRinkZone(facilityId: string | null): string | null {
  return useQuery({ ...facilityQuery(facilityId ?? ''), enabled: Boolean(facilityId) }).data?.timezone ?? null;
}

/** The zones of several rinks, by facility id (those read so far). */
export function useRinkZones(facilityIds: Array<string | null>): Map<string, string> {
  const ids = [...new Set(facilityIds.filter((id): id is string => Boolean(id)))];
  const facilities = useQueries({ queries: ids.map(facilityQuery) });
  const zones = new Map<string, string>();
  ids.forEach((id, i) => {
    const zone = facilities[i]?.data?.timezone;
    if (zone) zones.set(id, zone);
  });
  return zones;
}
