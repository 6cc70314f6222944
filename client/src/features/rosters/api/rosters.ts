// REST calls and query hooks for a roster: the roster itself, its players,
// join requests (mine and the deciders' queue) and roster edits. Every write
// also arrives as a `roster:ID` push; the invalidations here cover a socket
// that is down.

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { HockeyPosition, JoinRequest, Page, Roster, RosterCommitment, RosterPlayer, RosterStatus } from '../../../lib/api-types';

const enc = encodeURIComponent;

export const rosterKeys = {
  detail: (id: string) => ['rosters', id] as const,
  requests: (id: string) => ['rosters', id, 'requests'] as const,
  request: (id: string) => ['join-requests', id] as const,
};

export interface PlayerFields {
  jerseyNumber?: number | null;
  position?: HockeyPosition | null;
  commitmentLevel?: RosterCommitment;
  captain?: boolean;
  alternateCaptain?: boolean;
}

export interface NewJoinRequest {
  message?: string;
  preferredPosition?: HockeyPosition;
  commitmentLevel?: RosterCommitment;
}

export interface RosterPatch {
  name?: string;
  description?: string | null;
  maxMembers?: number | null;
  status?: RosterStatus;
  divisionMappingId?: string | null;
}

export const fetchRoster = (id: string, signal?: AbortSignal) => api.get<Roster>(`/rosters/${enc(id)}`, { signal });

export function useRoster(id: string) {
  return useQuery({ queryKey: rosterKeys.detail(id), queryFn: ({ signal }) => fetchRoster(id, signal) });
}

/** After any roster write: the roster, its queue, and the lists that show it. */
function refreshAfterWrite(queryClient: QueryClient, roster: Pick<Roster, 'id' | 'teamId' | 'seasonId'> | undefined, id: string) {
  void queryClient.invalidateQueries({ queryKey: rosterKeys.detail(id) });
  if (roster) {
    void queryClient.invalidateQueries({ queryKey: ['teams', roster.teamId], exact: true });
    void queryClient.invalidateQueries({ queryKey: ['seasons', roster.seasonId, 'rosters'] });
  }
}

function useRosterWrite<V, R>(id: string, call: (v: V) => Promise<R>, after?: (r: R, queryClient: QueryClient) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      after?.(result, queryClient);
      refreshAfterWrite(queryClient, queryClient.getQueryData<Roster>(rosterKeys.detail(id)), id);
    },
  });
}

export const useAddPlayer = (rosterId: string) =>
  useRosterWrite(rosterId, (body: PlayerFields & { userId: string }) => api.post<RosterPlayer>(`/rosters/${enc(rosterId)}/players`, body));

export const useEditPlayer = (rosterId: string) =>
  useRosterWrite(rosterId, ({ userId, ...patch }: PlayerFields & { userId: string }) => api.patch<RosterPlayer>(`/rosters/${enc(rosterId)}/players/${enc(userId)}`, patch));

/** Take a player off (managers), or leave (the player themself). */
export const useRemovePlayer = (rosterId: string) =>
  useRosterWrite(rosterId, (userId: string) => api.delete(`/rosters/${enc(rosterId)}/players/${enc(userId)}`));

export const useEditRoster = (rosterId: string) =>
  useRosterWrite(rosterId, (patch: RosterPatch) => api.patch<Roster>(`/rosters/${enc(rosterId)}`, patch), (roster, queryClient) =>
    queryClient.setQueryData(rosterKeys.detail(rosterId), roster),
  );

export const useRequestToJoin = (rosterId: string) =>
  useRosterWrite(rosterId, (body: NewJoinRequest) => api.post<JoinRequest>(`/rosters/${enc(rosterId)}/join-requests`, body), (req, queryClient) =>
    queryClient.setQueryData(rosterKeys.request(req.id), req),
  );

export const useCancelRequest = (rosterId: string) =>
  useRosterWrite(rosterId, (requestId: string) => api.delete(`/join-requests/${enc(requestId)}`));

export const useDecideRequest = (rosterId: string) =>
  useRosterWrite(
    rosterId,
    ({ requestId, approve }: { requestId: string; approve: boolean }) => api.post<JoinRequest>(`/join-requests/${enc(requestId)}/${approve ? 'approve' : 'reject'}`),
    (_req, queryClient) => void queryClient.invalidateQueries({ queryKey: rosterKeys.requests(rosterId) }),
  );

/** One request with its message (mine, or one I decide). */
export function useJoinRequest(id: string | null) {
  return useQuery({
    queryKey: rosterKeys.request(id ?? ''),
    queryFn: ({ signal }) => api.get<JoinRequest>(`/join-requests/${enc(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/**
 * The deciders' queue: pending requests with their messages. `queueKey`
 * (the pending ids in the live document) re-reads it whenever someone asks,
 * withdraws or is decided on.
 */
export function usePendingRequests(rosterId: string, queueKey: string, enabled: boolean) {
  return useQuery({
    queryKey: [...rosterKeys.requests(rosterId), queueKey],
    queryFn: ({ signal }) => api.get<Page<JoinRequest>>(`/rosters/${enc(rosterId)}/join-requests`, { signal, query: { status: 'PENDING', limit: 100 } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

