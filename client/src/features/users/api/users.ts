// REST calls and query hooks for people: profiles, search, follow lists.

import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { Facility, HockeyPosition, Page, PublicUser, SkillLevel, Team } from '../../../lib/api-types';
import { PAGE_SIZE } from '../../../config/constants';

export const userKeys = {
  detail: (id: string) => ['users', id] as const,
  search: (q: string, filters: PeopleFilters = {}) => ['users', 'search', q, filters.position ?? '', filters.skillLevel ?? ''] as const,
  followers: (id: string) => ['users', id, 'followers'] as const,
  following: (id: string) => ['users', id, 'following'] as const,
  followingFacilities: (id: string) => ['users', id, 'following', 'facilities'] as const,
  followingTeams: (id: string) => ['users', id, 'following', 'teams'] as const,
};


/** What else a people search narrows by (`GET /users?position=&skillLevel=`). */
export interface PeopleFilters {
  position?: HockeyPosition | null;
  skillLevel?: SkillLevel | null;
}

/** `q` is a name or username; `@name` looks in usernames only (docs/walkthrough.md). */
export function useUserSearch(q: string, filters: PeopleFilters = {}) {
  return useInfiniteQuery({
    queryKey: userKeys.search(q, filters),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<PublicUser>>('/users', {
        signal,
        query: { q, position: filters.position, skillLevel: filters.skillLevel, limit: PAGE_SIZE, cursor: pageParam },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

function usePagedList<T>(key: readonly unknown[], path: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ signal, pageParam }) => api.get<Page<T>>(path, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

export const useFollowingFacilities = (id: string, enabled = true) =>
  usePagedList<Facility>(userKeys.followingFacilities(id), `/users/${id}/following/facilities`, enabled);
export const useFollowingTeams = (id: string, enabled = true) =>
  usePagedList<Team>(userKeys.followingTeams(id), `/users/${id}/following/teams`, enabled);

export const usePeopleList = (id: string, which: 'followers' | 'following') =>
  usePagedList<PublicUser>(
    which === 'followers' ? userKeys.followers(id) : userKeys.following(id),
    `/users/${id}/${which}`,
  );
