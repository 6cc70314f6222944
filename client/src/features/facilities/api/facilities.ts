// REST calls and query hooks for facilities (rinks).

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, Page, PublicUser } from '../../../lib/api-types';
import { PAGE_SIZE } from '../../../config/constants';

export const facilityKeys = {
  detail: (id: string) => ['facilities', id] as const,
  search: (q: string) => ['facilities', 'search', q] as const,
};

export interface NewFacility {
  name: string;
  timezone: string;
  phoneNumber?: string;
  email?: string;
  website?: string;
  imageUrl?: string;
  description?: string;
}

export function useFacility(id: string) {
  return useQuery({
    queryKey: facilityKeys.detail(id),
    queryFn: ({ signal }) => api.get<Facility>(`/facilities/${encodeURIComponent(id)}`, { signal }),
  });
}

export function useFacilitySearch(q: string) {
  return useInfiniteQuery({
    queryKey: facilityKeys.search(q),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<Facility>>('/facilities', { signal, query: { q, limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

/** The owner's public profile, for "Run by …" (shares the users cache key). */
export function usePerson(id: string | null) {
  return useQuery({
    queryKey: ['users', id ?? ''],
    queryFn: ({ signal }) => api.get<PublicUser>(`/users/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

export function useCreateFacility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewFacility) => api.post<Facility>('/facilities', input),
    onSuccess: (facility) => {
      queryClient.setQueryData(facilityKeys.detail(facility.id), facility);
      void queryClient.invalidateQueries({ queryKey: ['facilities', 'search'] });
    },
  });
}

export function useFacilityFollowers(id: string) {
  return useInfiniteQuery({
    queryKey: ['facilities', id, 'followers'],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<PublicUser>>(`/facilities/${encodeURIComponent(id)}/followers`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
