// REST calls and query hooks for teams.

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, Page, PublicUser, Team } from '../../../lib/api-types';
import { PAGE_SIZE } from '../../../config/constants';

export const teamKeys = {
  detail: (id: string) => ['teams', id] as const,
  search: (q: string) => ['teams', 'search', q] as const,
};

export interface NewTeam {
  name: string;
  facilityId?: string;
  logoUrl?: string;
  description?: string;
}

export function useTeam(id: string) {
  return useQuery({
    queryKey: teamKeys.detail(id),
    queryFn: ({ signal }) => api.get<Team>(`/teams/${encodeURIComponent(id)}`, { signal }),
  });
}

export function useTeamSearch(q: string) {
  return useInfiniteQuery({
    queryKey: teamKeys.search(q),
    queryFn: ({ signal, pageParam }) => api.get<Page<Team>>('/teams', { signal, query: { q, limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

/** A team's home rink (shares the facilities cache key). */
export function useHomeFacility(id: string | null) {
  return useQuery({
    queryKey: ['facilities', id ?? ''],
    queryFn: ({ signal }) => api.get<Facility>(`/facilities/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/** Facilities matching the picker's text. */
export function useFacilityOptions(q: string) {
  return useQuery({
    queryKey: ['facilities', 'search', q, 'picker'],
    queryFn: ({ signal }) => api.get<Page<Facility>>('/facilities', { signal, query: { q, limit: 10 } }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewTeam) => api.post<Team>('/teams', input),
    onSuccess: (team) => {
      queryClient.setQueryData(teamKeys.detail(team.id), team);
      void queryClient.invalidateQueries({ queryKey: ['teams', 'search'] });
    },
  });
}

export function useTeamFollowers(id: string) {
  return useInfiniteQuery({
    queryKey: ['teams', id, 'followers'],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<PublicUser>>(`/teams/${encodeURIComponent(id)}/followers`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
