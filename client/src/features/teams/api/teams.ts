// REST calls and query hooks for teams: the page (kept fresh by `team:ID`),
// edits, and creating rosters. What a team shares with a rink (the page
// read, search, followers, staff, transfer, delete) is in lib/orgs.ts.

import { useEffect } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Roster, Team, TeamPage } from '../../../lib/api-types';
import { orgKeys, useDeleteOrg, useOrgPage, useOrgPageWrite, useTransferOrg } from '../../../lib/orgs';
import { myKeys } from '../../../lib/me';
import { useTopic } from '../../../lib/ws';

const enc = encodeURIComponent;

export const teamKeys = {
  detail: (id: string) => orgKeys.detail('teams', id),
};

/**
 * A team's writes also change what rink pages show (their teams, their
 * counts), and the teams I run, which the event page's team picker offers.
 */
const ALSO_REFRESH = [['facilities'], myKeys.teams] as const;

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
export const useTeam = (id: string) => useOrgPage<TeamPage>('teams', id);

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

export function useCreateTeam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewTeam) => api.post<Team>('/teams', input),
    onSuccess: (team) => {
      void queryClient.invalidateQueries({ queryKey: orgKeys.searches('teams') });
      void queryClient.invalidateQueries({ queryKey: myKeys.teams });
      if (team.facilityId) void queryClient.invalidateQueries({ queryKey: ['facilities', team.facilityId, 'teams'] });
    },
  });
}

export const useUpdateTeam = (id: string) => useOrgPageWrite('teams', id, (patch: TeamPatch) => api.patch<TeamPage>(`/teams/${enc(id)}`, patch), ALSO_REFRESH);

export const useTransferTeam = (id: string) => useTransferOrg<TeamPage>('teams', id, ALSO_REFRESH);

export const useDeleteTeam = (id: string) => useDeleteOrg('teams', id, ALSO_REFRESH);

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
