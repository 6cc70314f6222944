// REST for statuses (docs/statuses.md): the board, my statuses and the
// teams I may post for, posting, editing and taking down. The matches and
// taking a spot live in ./matches.ts.

import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { HockeyPosition, Page, Status, StatusType, UniversalDivision } from '../../../lib/api-types';
import { PAGE_SIZE } from '../../../config/constants';
import { myKeys } from '../../../lib/me';
import type { CreateStatusBody, PatchStatusBody } from '../model/status-draft';

const enc = encodeURIComponent;

/** How often an open board reads itself again. */
const BOARD_REFRESH_MS = 60_000;

/** Filters of `GET /statuses`. */
export interface BoardFilters {
  type?: StatusType;
  position?: HockeyPosition;
  facilityId?: string;
  division?: UniversalDivision;
  /** RFC 3339: active at some moment of [from, to]. */
  from?: string;
  to?: string;
}

export const subsKeys = {
  statuses: ['statuses'] as const,
  boards: ['statuses', 'board'] as const,
  board: (f: BoardFilters) => ['statuses', 'board', f] as const,
  matches: ['me', 'matches'] as const,
  mine: myKeys.statuses,
};

export function useBoard(filters: BoardFilters) {
  return useInfiniteQuery({
    queryKey: subsKeys.board(filters),
    queryFn: ({ signal, pageParam }) => api.get<Page<Status>>('/statuses', { signal, query: { ...filters, limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    // Statuses come and go all evening and the board has no topic: a filter
    // switched back to is read again (its cached page shows meanwhile), and
    // an open board refreshes itself now and then.
    staleTime: 0,
    refetchInterval: BOARD_REFRESH_MS,
  });
}

/** After any status write: my list, the board and the matches (the topic also pushes; REST readers need the refresh). */
export function refreshStatuses(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: subsKeys.mine }),
    queryClient.invalidateQueries({ queryKey: subsKeys.matches }),
    queryClient.invalidateQueries({ queryKey: subsKeys.statuses }),
  ]);
}

export function useCreateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateStatusBody) => api.post<Status>('/statuses', body),
    onSuccess: (status) => {
      queryClient.setQueryData<{ items: Status[] }>(subsKeys.mine, (old) => (old ? { items: [status, ...old.items.filter((s) => s.id !== status.id)] } : old));
      void refreshStatuses(queryClient);
    },
  });
}

export function useUpdateStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: PatchStatusBody }) => api.patch<Status>(`/statuses/${enc(id)}`, patch),
    onSuccess: (status) => {
      queryClient.setQueryData<{ items: Status[] }>(subsKeys.mine, (old) => (old ? { items: old.items.map((s) => (s.id === status.id ? status : s)) } : old));
      void refreshStatuses(queryClient);
    },
  });
}

export function useDeleteStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/statuses/${enc(id)}`),
    onSuccess: (_void, id) => {
      queryClient.setQueryData<{ items: Status[] }>(subsKeys.mine, (old) => (old ? { items: old.items.filter((s) => s.id !== id) } : old));
      void refreshStatuses(queryClient);
    },
  });
}
