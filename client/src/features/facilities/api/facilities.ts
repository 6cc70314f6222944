// REST calls and query hooks for facilities (rinks): the page, edits,
// seasons and the teams based there. What a rink shares with a team (the
// page read, search, followers, staff, transfer, delete) is in lib/orgs.ts.

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, FacilityPage, Page, RinkEvent, SeasonDetail, Team } from '../../../lib/api-types';
import { orgKeys, useDeleteOrg, useOrgPageWrite, useTransferOrg } from '../../../lib/orgs';
import type { SeasonValues } from '../../../components/ui/season-form';
import { PAGE_SIZE } from '../../../config/constants';

const enc = encodeURIComponent;

export const facilityKeys = {
  detail: (id: string) => orgKeys.detail('facilities', id),
  teams: (id: string) => ['facilities', id, 'teams'] as const,
  /** Infinite list; own last segment, since the pickers cache a plain page under ['facilities', id, 'seasons', 'picker']. */
  seasons: (id: string) => ['facilities', id, 'seasons', 'all'] as const,
};

export interface NewFacility {
  name: string;
  timezone: string;
  /** ISO 4217; the server picks one from the time zone when it is not given. */
  currency?: string;
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
  currency?: string;
  phoneNumber?: string | null;
  email?: string | null;
  website?: string | null;
  imageUrl?: string | null;
  description?: string | null;
}

export function useCreateFacility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewFacility) => api.post<Facility>('/facilities', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: orgKeys.searches('facilities') });
    },
  });
}

export const useUpdateFacility = (id: string) =>
  useOrgPageWrite('facilities', id, (patch: FacilityPatch) => api.patch<FacilityPage>(`/facilities/${enc(id)}`, patch));

export const useTransferFacility = (id: string) => useTransferOrg<FacilityPage>('facilities', id);

export const useDeleteFacility = (id: string) => useDeleteOrg('facilities', id);

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

/** How many upcoming skates a rink's page shows before "All events here". */
export const UPCOMING_AT_RINK = 5;

/**
 * The rink's next events (`GET /events?facilityId=`: what the rink lists,
 * starting from now). Under the events' list key, so an RSVP or a new event
 * anywhere refreshes it too.
 */
export function useUpcomingAtFacility(facilityId: string) {
  return useQuery({
    queryKey: ['events', 'list', { facilityId, upcoming: true }, UPCOMING_AT_RINK] as const,
    queryFn: ({ signal }) =>
      api.get<Page<RinkEvent>>('/events', { signal, query: { facilityId, from: new Date().toISOString(), limit: UPCOMING_AT_RINK } }),
  });
}
