// What facilities and teams have in common on the client: a page read by
// id, a name search, followers, staff (owner + managers) who add and remove
// managers or hand the whole thing over, and deletion. The server serves
// both under the same shapes (`/facilities/...`, `/teams/...`), so these
// hooks take the kind; the features keep what is theirs alone (seasons of
// a rink, rosters of a team) and pass in what a write must refresh beyond
// their own page.

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from './api';
import type { Page, PublicUser, StaffRole, UserSummary } from './api-types';
import { PAGE_SIZE } from '../config/constants';

/** The API collection, which is also the first segment of every cache key. */
export type OrgKind = 'facilities' | 'teams';

/** What every org page (`GET /facilities/ID`, `GET /teams/ID`) carries. */
export interface OrgPageBase {
  id: string;
  name: string;
  ownerId: string;
  managers: UserSummary[];
  viewerRole: StaffRole | null;
  isFollowing: boolean;
  followerCount: number;
}

const enc = encodeURIComponent;

export const orgKeys = {
  detail: (kind: OrgKind, id: string) => [kind, id] as const,
  /** Every search of a kind (for invalidation). */
  searches: (kind: OrgKind) => [kind, 'search'] as const,
  search: (kind: OrgKind, q: string) => [kind, 'search', q] as const,
  followers: (kind: OrgKind, id: string) => [kind, id, 'followers'] as const,
};

/** The org's page: the org, its managers, and the viewer's role. */
export function useOrgPage<P extends OrgPageBase>(kind: OrgKind, id: string) {
  return useQuery({
    queryKey: orgKeys.detail(kind, id),
    queryFn: ({ signal }) => api.get<P>(`/${kind}/${enc(id)}`, { signal }),
  });
}

/** Orgs whose name matches `q` (all of them, by name, for an empty one), with "load more". */
export function useOrgSearch<T>(kind: OrgKind, q: string) {
  return useInfiniteQuery({
    queryKey: orgKeys.search(kind, q),
    queryFn: ({ signal, pageParam }) => api.get<Page<T>>(`/${kind}`, { signal, query: { q, limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

export function useOrgFollowers(kind: OrgKind, id: string) {
  return useInfiniteQuery({
    queryKey: orgKeys.followers(kind, id),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<PublicUser>>(`/${kind}/${enc(id)}/followers`, { signal, query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** A person's public profile (`GET /users/ID`): the profile page, and the owner for "Run by …" and the staff card. */
export function usePerson(id: string | null) {
  return useQuery({
    queryKey: ['users', id ?? ''],
    queryFn: ({ signal }) => api.get<PublicUser>(`/users/${enc(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/**
 * A write that answers the whole page: it goes straight in the cache, and
 * every search of the kind, the home page and `alsoRefresh` are read again.
 */
export function useOrgPageWrite<P extends OrgPageBase, V>(kind: OrgKind, id: string, call: (v: V) => Promise<P>, alsoRefresh: readonly QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (page) => {
      queryClient.setQueryData(orgKeys.detail(kind, id), page);
      void queryClient.invalidateQueries({ queryKey: orgKeys.searches(kind) });
      void queryClient.invalidateQueries({ queryKey: ['home'] });
      for (const key of alsoRefresh) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** The owner hands the org over (staying on as a manager). */
export function useTransferOrg<P extends OrgPageBase>(kind: OrgKind, id: string, alsoRefresh: readonly QueryKey[] = []) {
  return useOrgPageWrite(kind, id, (userId: string) => api.post<P>(`/${kind}/${enc(id)}/transfer-ownership`, { userId }), alsoRefresh);
}

/** Delete the org: its page leaves the cache; searches, home and `alsoRefresh` are read again. */
export function useDeleteOrg(kind: OrgKind, id: string, alsoRefresh: readonly QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/${kind}/${enc(id)}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: orgKeys.detail(kind, id), exact: true });
      void queryClient.invalidateQueries({ queryKey: orgKeys.searches(kind) });
      void queryClient.invalidateQueries({ queryKey: ['home'] });
      for (const key of alsoRefresh) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}

/** Add (PUT) or remove (DELETE) a manager, then re-read the page. */
export function useManagerLink(kind: OrgKind, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, add }: { userId: string; add: boolean }) =>
      add ? api.put(`/${kind}/${enc(id)}/managers/${enc(userId)}`) : api.delete(`/${kind}/${enc(id)}/managers/${enc(userId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orgKeys.detail(kind, id), exact: true }),
  });
}
