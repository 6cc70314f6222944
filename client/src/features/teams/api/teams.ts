// REST calls and query hooks for teams: the page (kept fresh by `team:ID`),
// edits, staff, and creating rosters.

import { useEffect } from 'react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { DivisionMapping, Facility, Page, PublicUser, Roster, SeasonDetail, Team, TeamPage } from '../../../lib/api-types';
import { useTopic } from '../../../lib/ws';
import { PAGE_SIZE } from '../../../config/constants';

const enc = encodeURIComponent;

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

/** Only the fields given change; null clears (facilityId: null un-links the rink). */
export interface TeamPatch {
  name?: string;
  facilityId?: string | null;
  logoUrl?: string | null;
  description?: string | null;
}

export interface NewRoster {
  teamId: string;
  seasonId: string;
  name: string;
  description?: string;
  maxMembers?: number;
  status?: 'DRAFT' | 'ACTIVE';
  divisionMappingId?: string;
}

/** The team's page: the team, its managers, rosters by season and my role. */
export function useTeam(id: string) {
  return useQuery({
    queryKey: teamKeys.detail(id),
    queryFn: ({ signal }) => api.get<TeamPage>(`/teams/${enc(id)}`, { signal }),
  });
}

/** While the page is open, an edit made elsewhere (`team:ID` push) re-reads it. */
export function useTeamLive(team: Pick<Team, 'id' | 'updatedAt'>) {
  const live = useTopic<{ updatedAt: string }>(`team:${team.id}`);
  const queryClient = useQueryClient();
  const pushed = live?.data.updatedAt ? Date.parse(live.data.updatedAt) : 0;
  const held = Date.parse(team.updatedAt);
  useEffect(() => {
    if (pushed > held) void queryClient.refetchQueries({ queryKey: teamKeys.detail(team.id), exact: true }, { cancelRefetch: false });
  }, [pushed, held, team.id, queryClient]);
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
    queryFn: ({ signal }) => api.get<Facility>(`/facilities/${enc(id ?? '')}`, { signal }),
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

/** A person's public profile (the owner, for the staff card). */
export function usePerson(id: string | null) {
  return useQuery({
    queryKey: ['users', id ?? ''],
    queryFn: ({ signal }) => api.get<PublicUser>(`/users/${enc(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewTeam) => api.post<Team>('/teams', input),
    onSuccess: (team) => {
      void queryClient.invalidateQueries({ queryKey: ['teams', 'search'] });
      if (team.facilityId) void queryClient.invalidateQueries({ queryKey: ['facilities', team.facilityId, 'teams'] });
    },
  });
}

function usePageWrite<V>(id: string, call: (v: V) => Promise<TeamPage>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (page) => {
      queryClient.setQueryData(teamKeys.detail(id), page);
      void queryClient.invalidateQueries({ queryKey: ['teams', 'search'] });
      void queryClient.invalidateQueries({ queryKey: ['home'] });
      void queryClient.invalidateQueries({ queryKey: ['facilities'] });
    },
  });
}

export const useUpdateTeam = (id: string) => usePageWrite(id, (patch: TeamPatch) => api.patch<TeamPage>(`/teams/${enc(id)}`, patch));

export const useTransferTeam = (id: string) => usePageWrite(id, (userId: string) => api.post<TeamPage>(`/teams/${enc(id)}/transfer-ownership`, { userId }));

export function useDeleteTeam(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/teams/${enc(id)}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: teamKeys.detail(id), exact: true });
      void queryClient.invalidateQueries({ queryKey: ['teams', 'search'] });
      void queryClient.invalidateQueries({ queryKey: ['home'] });
      void queryClient.invalidateQueries({ queryKey: ['facilities'] });
    },
  });
}

/** Add (PUT) or remove (DELETE) a manager, then re-read the page. */
export function useManagerLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, add }: { userId: string; add: boolean }) =>
      add ? api.put(`/teams/${enc(id)}/managers/${enc(userId)}`) : api.delete(`/teams/${enc(id)}/managers/${enc(userId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.detail(id), exact: true }),
  });
}

export function useTeamFollowers(id: string) {
  return useInfiniteQuery({
    queryKey: ['teams', id, 'followers'],
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<PublicUser>>(`/teams/${enc(id)}/followers`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** A facility's seasons (latest first), for picking the roster's season. */
export function useSeasonOptions(facilityId: string) {
  return useQuery({
    queryKey: ['facilities', facilityId, 'seasons', 'picker'],
    queryFn: ({ signal }) => api.get<Page<SeasonDetail>>(`/facilities/${enc(facilityId)}/seasons`, { signal, query: { limit: 50 } }),
    enabled: Boolean(facilityId),
  });
}

/** A season's division mappings, for placing the roster. */
export function useDivisionOptions(seasonId: string) {
  return useQuery({
    queryKey: ['seasons', seasonId, 'division-mappings'],
    queryFn: ({ signal }) => api.get<DivisionMapping[]>(`/seasons/${enc(seasonId)}/division-mappings`, { signal }),
    enabled: Boolean(seasonId),
  });
}

export function useCreateRoster(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewRoster) => api.post<Roster>('/rosters', input),
    onSuccess: (roster) => {
      queryClient.setQueryData(['rosters', roster.id], roster);
      void queryClient.invalidateQueries({ queryKey: teamKeys.detail(teamId), exact: true });
      void queryClient.invalidateQueries({ queryKey: ['seasons', roster.seasonId] });
    },
  });
}
