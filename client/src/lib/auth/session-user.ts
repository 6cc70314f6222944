// Loads the signed-in user once a token source is available; shared by the
// Clerk and dev providers so both expose the same `user` behaviour.

import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../api';
import type { User } from '../api-types';

export const ME_QUERY_KEY = ['me'] as const;

export function useSessionUser(enabled: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: ({ signal }) => api.get<User>('/me', { signal }),
    enabled,
    staleTime: 30_000,
    retry: (count, err) => !(err instanceof ApiError && err.status > 0 && err.status < 500) && count < 2,
  });
  const setUser = useCallback((user: User) => queryClient.setQueryData(ME_QUERY_KEY, user), [queryClient]);
  const refreshUser = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
  }, [queryClient]);
  return { query, setUser, refreshUser };
}
