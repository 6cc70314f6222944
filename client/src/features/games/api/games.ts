// REST calls and query hooks for games: scheduling and editing games,
// lineups, score keepers, season rosters and leaders, team schedules and a
// player's stats. The live reads (a game, a season's standings and
// schedule) are in lib/games.ts, shared with the arena displays.

import { keepPreviousData, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type {
  ClockMode,
  Game,
  GameDocument,
  GameScheduleEntry,
  Page,
  PlayerStats,
  PublicUser,
  Roster,
  RosterSummary,
  Scorekeeper,
  ScoringLeader,
  TeamPage,
} from '../../../lib/api-types';
import { gameKeys, seasonGameKeys } from '../../../lib/games';
import type { GameActionBody } from '../model/commands';
import { PAGE_SIZE } from '../../../config/constants';

const enc = encodeURIComponent;

/** Scoring leaders shown on the season page. */
export const LEADERS_SHOWN = 10;
/** Rosters a season page reads (a league rarely has more). */
const SEASON_ROSTERS_LIMIT = 100;

export const gamesKeys = {
  seasonRosters: (seasonId: string) => ['seasons', seasonId, 'rosters', 'all'] as const,
  /** Own key: only the viewer block is used here, whatever other pages cache. */
  rosterViewer: (rosterId: string) => ['rosters', rosterId, 'games-viewer'] as const,
  team: (teamId: string) => ['teams', teamId] as const,
  teamSchedule: (teamId: string, seasonId: string | null) => ['teams', teamId, 'schedule', seasonId] as const,
  userStats: (userId: string) => ['users', userId, 'stats'] as const,
  peopleSearch: (q: string) => ['users', 'search', q, 'scorekeepers'] as const,
};

// ── Seasons ───────────────────────────────────────────────────────────────

export function useSeasonRosters(seasonId: string) {
  return useQuery({
    queryKey: gamesKeys.seasonRosters(seasonId),
    queryFn: ({ signal }) =>
      api.get<Page<RosterSummary>>(`/seasons/${enc(seasonId)}/rosters`, { signal, query: { limit: SEASON_ROSTERS_LIMIT } }),
    select: (page) => page.items,
  });
}

/**
 * The season's rosters whose team the viewer runs (owner or manager):
 * those are the games a team's staff may schedule and edit. Asked per
 * roster, since only the single roster read carries the viewer's rights;
 * skipped entirely for the facility's staff, who may do it all.
 */
export function useManagedRosterIds(rosters: RosterSummary[] | undefined, enabled: boolean): { ids: Set<string>; isPending: boolean } {
  const results = useQueries({
    queries: (enabled ? (rosters ?? []) : []).map((r) => ({
      queryKey: gamesKeys.rosterViewer(r.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Roster>(`/rosters/${enc(r.id)}`, { signal }),
      staleTime: 60_000,
    })),
  });
  const ids = new Set<string>();
  for (const q of results) if (q.data?.viewer.canManagePlayers) ids.add(q.data.id);
  return { ids, isPending: results.some((q) => q.isPending) };
}

export function useLeaders(seasonId: string, limit = LEADERS_SHOWN) {
  return useQuery({
    queryKey: [...seasonGameKeys.leaders(seasonId), limit],
    queryFn: ({ signal }) => api.get<ScoringLeader[]>(`/seasons/${enc(seasonId)}/leaders`, { signal, query: { limit } }),
    placeholderData: keepPreviousData,
  });
}

// ── Games ─────────────────────────────────────────────────────────────────

export interface NewGameInput {
  homeRosterId: string;
  awayRosterId: string;
  seasonId: string;
  scheduledAt: string;
  /** Absent: the season's (docs/game-night.md › Settings). */
  periodMinutes?: number;
  overtimeMinutes?: number;
  clockMode?: ClockMode;
}

export interface GamePatch {
  scheduledAt?: string;
  status?: 'SCHEDULED' | 'POSTPONED' | 'CANCELLED';
  /** null: back to the season's. */
  periodMinutes?: number | null;
  overtimeMinutes?: number | null;
  clockMode?: ClockMode | null;
}

/** After a game changed: its season's reads (the topic also pushes, but the socket may be down). */
function refreshSeason(queryClient: ReturnType<typeof useQueryClient>, seasonId: string) {
  void queryClient.invalidateQueries({ queryKey: seasonGameKeys.schedule(seasonId) });
  void queryClient.invalidateQueries({ queryKey: seasonGameKeys.standings(seasonId) });
  void queryClient.invalidateQueries({ queryKey: ['teams'], predicate: (q) => q.queryKey[2] === 'schedule' });
}

export function useCreateGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NewGameInput) => api.post<Game>('/games', input),
    onSuccess: (game) => {
      queryClient.setQueryData(gameKeys.detail(game.id), game);
      refreshSeason(queryClient, game.seasonId);
    },
  });
}

export function useEditGame(gameId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: GamePatch) => api.patch<Game>(`/games/${enc(gameId)}`, patch),
    onSuccess: (game) => {
      queryClient.setQueryData(gameKeys.detail(game.id), game);
      refreshSeason(queryClient, game.seasonId);
    },
  });
}

/** A scoring action over REST (the fallback while the socket is down); the key makes a retry safe. */
export const postAction = (gameId: string, body: GameActionBody, idempotencyKey: string) =>
  api.post<GameDocument>(`/games/${enc(gameId)}/actions`, body, { headers: { 'Idempotency-Key': idempotencyKey } });

export const putLineup = (gameId: string, rosterId: string, userIds: string[]) =>
  api.put<GameDocument>(`/games/${enc(gameId)}/lineups/${enc(rosterId)}`, { userIds });

// ── Score keepers ─────────────────────────────────────────────────────────

export function useScorekeepers(gameId: string, enabled: boolean) {
  return useQuery({
    queryKey: gameKeys.scorekeepers(gameId),
    queryFn: ({ signal }) => api.get<Scorekeeper[]>(`/games/${enc(gameId)}/scorekeepers`, { signal }),
    enabled,
  });
}

export function useAddScorekeeper(gameId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.put(`/games/${enc(gameId)}/scorekeepers/${enc(userId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: gameKeys.scorekeepers(gameId) }),
  });
}

export function useRemoveScorekeeper(gameId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.delete(`/games/${enc(gameId)}/scorekeepers/${enc(userId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: gameKeys.scorekeepers(gameId) }),
  });
}

export function usePeopleSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: gamesKeys.peopleSearch(q),
    queryFn: ({ signal }) => api.get<Page<PublicUser>>('/users', { signal, query: { q, limit: 8 } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

// ── Teams and players ─────────────────────────────────────────────────────

export function useTeam(teamId: string) {
  return useQuery({
    queryKey: gamesKeys.team(teamId),
    queryFn: ({ signal }) => api.get<TeamPage>(`/teams/${enc(teamId)}`, { signal }),
  });
}

export function useTeamSchedule(teamId: string, seasonId: string | null) {
  return useInfiniteQuery({
    queryKey: gamesKeys.teamSchedule(teamId, seasonId),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<GameScheduleEntry>>(`/teams/${enc(teamId)}/schedule`, {
        signal,
        query: { seasonId, limit: PAGE_SIZE, cursor: pageParam },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

export function usePlayerStats(userId: string) {
  return useQuery({
    queryKey: gamesKeys.userStats(userId),
    queryFn: ({ signal }) => api.get<PlayerStats>(`/users/${enc(userId)}/stats`, { signal }),
  });
}
