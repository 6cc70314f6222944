// The home dashboard's reads: a first page of what I follow.

import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, Page, PublicUser, Team } from '../../../lib/api-types';

const PREVIEW = 6;

function usePreview<T>(what: string, path: string) {
  return useQuery({
    queryKey: ['home', what, path],
    queryFn: ({ signal }) => api.get<Page<T>>(path, { signal, query: { limit: PREVIEW } }),
  });
}

export const useFollowingPreview = (userId: string) => usePreview<PublicUser>('people', `/users/${userId}/following`);
export const useFacilitiesPreview = (userId: string) => usePreview<Facility>('facilities', `/users/${userId}/following/facilities`);
export const useTeamsPreview = (userId: string) => usePreview<Team>('teams', `/users/${userId}/following/teams`);

