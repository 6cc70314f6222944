// The universal division scale (docs/divisions.md), read once: the sub
// board's level filter and a season's divisions both name levels by it.

import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { DivisionScaleLevel } from './api-types';

export const divisionScaleKey = ['divisions', 'scale'] as const;

/** The scale, lowest first; public, and it never changes while the app runs. */
export function useDivisionScale() {
  return useQuery({
    queryKey: divisionScaleKey,
    queryFn: ({ signal }) => api.get<DivisionScaleLevel[]>('/divisions/scale', { signal, anonymous: true }),
    staleTime: Infinity,
  });
}
