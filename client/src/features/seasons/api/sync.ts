// REST calls and query hooks for a season's schedule sync (docs/sync.md ›
// API): run it now, its history, the league's teams (match, unmatch, claim)
// and the league's games. Every write re-reads what it changes: the season
// (`lastSync`, `nextSyncAt`), the league's teams and games, and event lists
// (a sync or a match makes and cancels EXTERNAL_GAME events).

import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Page, Team } from '../../../lib/api-types';
import type { ExternalGame, ExternalRoster, SyncReport } from '../model/sync';

const enc = encodeURIComponent;

/** How long after `nextSyncAt` the season is read again: a tick (30 s) plus a fetch (up to 10 s), with room. */
const AFTER_SCHEDULED_SYNC_MS = 45_000;

export const syncKeys = {
  /** Everything under the season: detail, rosters, sync, league teams and games. */
  season: (id: string) => ['seasons', id] as const,
  runs: (id: string) => ['seasons', id, 'sync-runs'] as const,
  externalRosters: (id: string) => ['seasons', id, 'external-rosters'] as const,
  externalGames: (id: string) => ['seasons', id, 'external-games'] as const,
};

/** After a sync or a match: the season and all it shows, and every event list. */
function refreshAfterSync(queryClient: QueryClient, seasonId: string) {
  void queryClient.invalidateQueries({ queryKey: syncKeys.season(seasonId) });
  void queryClient.invalidateQueries({ queryKey: ['events'] });
  void queryClient.invalidateQueries({ queryKey: ['home'] });
}

/** Run a sync now (staff). Takes up to ~10 s; answers the report, or 422/409 with the reason. */
export function useSyncNow(seasonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<SyncReport>(`/seasons/${enc(seasonId)}/sync`),
    // A failure is recorded in the history too, and changes `lastSync`.
    onSettled: () => refreshAfterSync(queryClient, seasonId),
  });
}

/** The last runs, newest first (staff only). */
export function useSyncRuns(seasonId: string, enabled: boolean) {
  return useQuery({
    queryKey: syncKeys.runs(seasonId),
    queryFn: ({ signal }) => api.get<{ items: SyncReport[] }>(`/seasons/${enc(seasonId)}/sync-runs`, { signal }),
    select: (d) => d.items,
    enabled,
  });
}

export function useExternalRosters(seasonId: string, enabled = true) {
  return useQuery({
    queryKey: syncKeys.externalRosters(seasonId),
    queryFn: ({ signal }) => api.get<ExternalRoster[]>(`/seasons/${enc(seasonId)}/external-rosters`, { signal }),
    enabled,
  });
}

export function useExternalGames(seasonId: string, enabled = true) {
  return useQuery({
    queryKey: syncKeys.externalGames(seasonId),
    queryFn: ({ signal }) => api.get<ExternalGame[]>(`/seasons/${enc(seasonId)}/external-games`, { signal }),
    enabled,
  });
}

/**
 * A scheduled sync changes the season with nobody on the page asking: read
 * it again once the sync the season announces should be over. Once per
 * `nextSyncAt` (an overdue one is read once, not in a loop).
 */
export function useRefreshAfterScheduledSync(seasonId: string, nextSyncAt: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!nextSyncAt) return undefined;
    const due = Date.parse(nextSyncAt);
    if (Number.isNaN(due)) return undefined;
    // setTimeout holds at most ~24.8 days; a sync further off is read when the page is opened again.
    const delay = Math.min(Math.max(due - Date.now() + AFTER_SCHEDULED_SYNC_MS, 5_000), 2 ** 31 - 1);
    const t = setTimeout(() => void queryClient.invalidateQueries({ queryKey: syncKeys.season(seasonId) }), delay);
    return () => clearTimeout(t);
  }, [seasonId, nextSyncAt, queryClient]);
}

/** Staff match an external team to one of ours (`teamId`), or undo a match (`null`). */
export function useMatchRoster(seasonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rosterId, teamId }: { rosterId: string; teamId: string | null }) =>
      api.patch<ExternalRoster>(`/external-rosters/${enc(rosterId)}`, { teamId }),
    onSuccess: (roster) => {
      queryClient.setQueryData<ExternalRoster[]>(syncKeys.externalRosters(seasonId), (held) => held?.map((r) => (r.id === roster.id ? roster : r)));
      refreshAfterSync(queryClient, seasonId);
    },
  });
}

/** A team's owner or manager says an external team is theirs. */
export function useClaimRoster(seasonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rosterId, teamId }: { rosterId: string; teamId: string }) =>
      api.post<ExternalRoster>(`/external-rosters/${enc(rosterId)}/claim`, { teamId }),
    onSuccess: (roster) => {
      queryClient.setQueryData<ExternalRoster[]>(syncKeys.externalRosters(seasonId), (held) => held?.map((r) => (r.id === roster.id ? roster : r)));
    },
    // 409 already_matched: someone matched it meanwhile; show what is true now.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: syncKeys.externalRosters(seasonId) }),
  });
}

/** Withdraw (the claimer) or decline (staff) a claim. */
export function useDropClaim(seasonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rosterId: string) => api.delete(`/external-rosters/${enc(rosterId)}/claim`),
    onSuccess: (_void, rosterId) => {
      queryClient.setQueryData<ExternalRoster[]>(syncKeys.externalRosters(seasonId), (held) => held?.map((r) => (r.id === rosterId ? { ...r, claim: null } : r)));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: syncKeys.externalRosters(seasonId) }),
  });
}

/** Any team whose name matches, for the staff's "match to…" picker. */
export function useTeamSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['teams', 'search', q, 'sync-picker'],
    queryFn: ({ signal }) => api.get<Page<Team>>('/teams', { signal, query: { q, limit: 10 } }),
    select: (d) => d.items,
    enabled,
  });
}
