// Divisions (docs/divisions.md), read once each: the universal scale (the
// sub board's level filter and a season's divisions name levels by it) and a
// season's own divisions (the roster forms place a roster in one).

import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { DivisionMapping, DivisionScaleLevel } from './api-types';

export const divisionScaleKey = ['divisions', 'scale'] as const;

/** The scale, lowest first; public, and it never changes while the app runs. */
export function useDivisionScale() {
  return useQuery({
    queryKey: divisionScaleKey,
    queryFn: ({ signal }) => api.get<DivisionScaleLevel[]>('/divisions/scale', { signal, anonymous: true }),
    staleTime: Infinity,
  });
}

/** A season's divisions (its names on the scale); idle without a season. */
export function useSeasonDivisions(seasonId: string) {
  return useQuery({
    queryKey: ['seasons', seasonId, 'division-mappings'],
    queryFn: ({ signal }) => api.get<DivisionMapping[]>(`/seasons/${encodeURIComponent(seasonId)}/division-mappings`, { signal }),
    enabled: Boolean(seasonId),
  });
}
