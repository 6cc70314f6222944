// The rink lobby's live open spots: the public `spots:<facilityId>` topic
// (docs/statuses.md › Live), and the facility's public read for its name
// and for telling a wrong address from a server that is not up yet.

import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, SpotsDocument } from '../../../lib/api-types';
import { useTopic } from '../../../lib/ws';

export const spotsTopic = (facilityId: string) => `spots:${facilityId}`;

/** Subscribes while mounted; the newest document, or null before the snapshot. */
export function useLiveSpots(facilityId: string): SpotsDocument | null {
  return useTopic<SpotsDocument>(facilityId ? spotsTopic(facilityId) : null)?.data ?? null;
}

export function usePublicFacility(id: string) {
  return useQuery({
    queryKey: ['facilities', id],
    queryFn: ({ signal }) => api.get<Facility>(`/facilities/${encodeURIComponent(id)}`, { signal, anonymous: true }),
    enabled: Boolean(id),
    staleTime: 5 * 60_000,
  });
}
