// REST calls and query hooks for facilities (rinks): the page, edits,
// staff, seasons and the teams based there.

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, FacilityPage, Page, PublicUser, SeasonDetail, Team } from '../../../lib/api-types';
import type { SeasonValues } from '../../../components/ui/season-form';
import { PAGE_SIZE } from '../../../config/constants';

const enc = encodeURIComponent;

export const facilityKeys = {
  detail: (id: string) => ['facilities', id] as const,
  search: (q: string) => ['facilities', 'search', q] as const,
  teams: (id: string) => ['facilities', id, 'teams'] as const,
  /** Infinite list; own last segment, since the event form caches a plain page under ['facilities', id, 'seasons']. */
  seasons: (id: string) => ['facilities', id, 'seasons', 'all'] as const,
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

/** Only the fields given change; null clears an optional one. */
export interface FacilityPatch {
  name?: string;
  timezone?: string;
  phoneNumber?: string | null;
  email?: string | null;
  website?: string | null;
  imageUrl?: string | null;
  description?: string | null;
}

/** The facility's page: the facility, its managers, latest seasons and my role. */
export function useFacility(id: string) {
  return useQuery({
    queryKey: facilityKeys.detail(id),
    queryFn: ({ signal }) => api.get<FacilityPage>(`/facilities/${enc(id)}`, { signal }),
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
    queryFn: ({ signal }) => api.get<PublicUser>(`/users/${enc(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

export function useCreateFacility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewFacility) => api.post<Facility>('/facilities', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['facilities', 'search'] });
    },
  });
}

/** Writes that answer the whole page put it straight in the cache. */
function usePageWrite<V>(id: string, call: (v: V) => Promise<FacilityPage>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (page) => {
      queryClient.setQueryData(facilityKeys.detail(id), page);
      void queryClient.invalidateQueries({ queryKey: ['facilities', 'search'] });
      void queryClient.invalidateQueries({ queryKey: ['home'] });
    },
  });
}

export const useUpdateFacility = (id: string) => usePageWrite(id, (patch: FacilityPatch) => api.patch<FacilityPage>(`/facilities/${enc(id)}`, patch));

export const useTransferFacility = (id: string) =>
  usePageWrite(id, (userId: string) => api.post<FacilityPage>(`/facilities/${enc(id)}/transfer-ownership`, { userId }));

export function useDeleteFacility(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/facilities/${enc(id)}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: facilityKeys.detail(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: ['facilities', 'search'] });
      void queryClient.invalidateQueries({ queryKey: ['home'] });
    },
  });
}

/** Add (PUT) or remove (DELETE) a manager, then re-read the page. */
export function useManagerLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, add }: { userId: string; add: boolean }) =>
      add ? api.put(`/facilities/${enc(id)}/managers/${enc(userId)}`) : api.delete(`/facilities/${enc(id)}/managers/${enc(userId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: facilityKeys.detail(id), exact: true }),
  });
}

export function useFacilityFollowers(id: string) {
  return useInfiniteQuery({
    queryKey: ['facilities', id, 'followers'],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<PublicUser>>(`/facilities/${enc(id)}/followers`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Teams based at the facility, by name. */
export function useFacilityTeams(id: string) {
  return useInfiniteQuery({
    queryKey: facilityKeys.teams(id),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<Team>>(`/facilities/${enc(id)}/teams`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/**
 * Every season, latest start first, with "load more". The page itself
 * carries the first 20, which the list shows until this answers.
 */
export function useFacilitySeasons(id: string) {
  return useInfiniteQuery({
    queryKey: facilityKeys.seasons(id),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<SeasonDetail>>(`/facilities/${enc(id)}/seasons`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useCreateSeason(facilityId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: SeasonValues) => api.post<SeasonDetail>(`/facilities/${enc(facilityId)}/seasons`, values),
    onSuccess: (season) => {
      queryClient.setQueryData(['seasons', season.id], season);
      void queryClient.invalidateQueries({ queryKey: facilityKeys.detail(facilityId), exact: true });
      // Every cached list of the facility's seasons (this page's, the event and roster forms').
      void queryClient.invalidateQueries({ queryKey: ['facilities', facilityId, 'seasons'] });
    },
  });
}
