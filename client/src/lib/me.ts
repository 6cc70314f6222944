// The signed-in person's own lists that several features read: the teams I
// run, my positions, the rosters I play on, the statuses I may edit. One
// query (key, fetch, type) each, so a write anywhere refreshes every screen
// that shows them.

import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { MyRoster, Page, PlayerPosition, Status, Team } from './api-types';

/** The server's largest page: more teams than one person runs in practice. */
const MY_TEAMS_LIMIT = 100;

export const myKeys = {
  teams: ['me', 'teams'] as const,
  positions: ['me', 'positions'] as const,
  statuses: ['me', 'statuses'] as const,
  rosters: ['schedule', 'rosters'] as const,
};

/**
 * The teams I own or manage (`GET /me/teams`, by name): the ones I may post
 * for, link to an event or claim a league roster for. One page of the
 * server's largest size; pickers filter it as I type, so someone running
 * more than 100 teams would see the first 100 by name.
 */
export function useMyTeams(enabled = true) {
  return useQuery({
    queryKey: myKeys.teams,
    queryFn: ({ signal }) => api.get<Page<Team>>('/me/teams', { signal, query: { limit: MY_TEAMS_LIMIT } }),
    enabled,
  });
}

/** My playing positions (the preferred one preselects an RSVP's or a join request's). */
export function useMyPositions() {
  return useQuery({
    queryKey: myKeys.positions,
    queryFn: ({ signal }) => api.get<PlayerPosition[]>('/me/positions', { signal }),
  });
}

/** The rosters I play on. */
export function useMyRosters() {
  return useQuery({
    queryKey: myKeys.rosters,
    queryFn: ({ signal }) => api.get<MyRoster[]>('/me/rosters', { signal }),
  });
}

/** The active statuses I may edit: mine, my teams', my events' calls for subs. */
export function useMyStatuses(enabled = true) {
  return useQuery({
    queryKey: myKeys.statuses,
    queryFn: ({ signal }) => api.get<{ items: Status[] }>('/me/statuses', { signal }),
    select: (d) => d.items,
    enabled,
  });
}
