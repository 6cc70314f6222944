// REST calls and query hooks for a season: the season (with its division
// mappings), its rosters, the universal division scale, and the staff's
// edits of the season and its mappings.

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { DivisionMapping, Page, RosterSummary, SeasonDetail, UniversalDivision } from '../../../lib/api-types';
import type { SeasonValues } from '../../../components/ui/season-form';
import { PAGE_SIZE } from '../../../config/constants';

const enc = encodeURIComponent;

export const seasonKeys = {
  detail: (id: string) => ['seasons', id] as const,
  rosters: (id: string) => ['seasons', id, 'rosters'] as const,
  scale: ['divisions', 'scale'] as const,
};

export interface MappingInput {
  facilityDivisionName: string;
  universalDivisionScale: UniversalDivision;
  description?: string | null;
}

export function useSeasonRosters(id: string) {
  return useInfiniteQuery({
    queryKey: seasonKeys.rosters(id),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<RosterSummary>>(`/seasons/${enc(id)}/rosters`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useUpdateSeason(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<SeasonValues>) => api.patch<SeasonDetail>(`/seasons/${enc(id)}`, patch),
    onSuccess: (season) => {
      queryClient.setQueryData(seasonKeys.detail(id), season);
      void queryClient.invalidateQueries({ queryKey: ['facilities', season.facilityId] });
      void queryClient.invalidateQueries({ queryKey: seasonKeys.rosters(id) });
    },
  });
}

/** After a mapping write: the season (it carries the mappings) and its rosters' division names. */
function useMappingWrite<V, R>(seasonId: string, call: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['seasons', seasonId] });
      void queryClient.invalidateQueries({ queryKey: ['rosters'] });
      void queryClient.invalidateQueries({ queryKey: ['teams'] });
    },
  });
}

export const useCreateMapping = (seasonId: string) =>
  useMappingWrite(seasonId, (input: MappingInput) => api.post<DivisionMapping>(`/seasons/${enc(seasonId)}/division-mappings`, input));

export const useEditMapping = (seasonId: string) =>
  useMappingWrite(seasonId, ({ id, ...patch }: Partial<MappingInput> & { id: string }) => api.patch<DivisionMapping>(`/division-mappings/${enc(id)}`, patch));

export const useDeleteMapping = (seasonId: string) => useMappingWrite(seasonId, (id: string) => api.delete(`/division-mappings/${enc(id)}`));
