// The home dashboard's reads: a first page of what I follow.

import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, Page, PublicUser, RinkEvent, Team } from '../../../lib/api-types';

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

/** Events I'm attending (or waitlisted for) from today on, soonest first. */
export function useUpcomingEvents() {
  return useQuery({
    queryKey: ['home', 'events', 'attending'],
    queryFn: ({ signal }) => {
      const now = new Date();
      const today = new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
      return api.get<Page<RinkEvent>>('/events', { signal, query: { attending: 'me', from: today, limit: PREVIEW } });
    },
  });
}
