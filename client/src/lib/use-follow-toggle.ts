// Follow / unfollow a user, facility or team with an optimistic flip of the
// button and the follower count, then a refetch so the numbers are the
// server's. Shared by every feature with a follow button.

import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from './api';

export type FollowKind = 'users' | 'facilities' | 'teams';

interface Followable {
  id: string;
  isFollowing: boolean;
  followerCount: number;
}

export function useFollowToggle(kind: FollowKind, target: Followable) {
  const queryClient = useQueryClient();
  const [override, setOverride] = useState<{ id: string; isFollowing: boolean; followerCount: number } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const current = override && override.id === target.id ? override : target;

  const toggle = useCallback(async () => {
    if (pending) return;
    const follow = !current.isFollowing;
    setError(null);
    setPending(true);
    setOverride({
      id: target.id,
      isFollowing: follow,
      followerCount: Math.max(0, current.followerCount + (follow ? 1 : -1)),
    });
    try {
      if (follow) await api.put(`/${kind}/${target.id}/follow`);
      else await api.delete(`/${kind}/${target.id}/follow`);
      // Whatever shows this target, and my own following counts/lists.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [kind] }),
        queryClient.invalidateQueries({ queryKey: ['me'] }),
        kind !== 'users' ? queryClient.invalidateQueries({ queryKey: ['users'] }) : Promise.resolve(),
        queryClient.invalidateQueries({ queryKey: ['home'] }),
      ]);
      setOverride(null);
    } catch (err) {
      setOverride(null);
      setError(err instanceof Error ? err : new Error('Could not update follow'));
    } finally {
      setPending(false);
    }
  }, [pending, current.isFollowing, current.followerCount, target.id, kind, queryClient]);

  return { isFollowing: current.isFollowing, followerCount: current.followerCount, toggle, pending, error };
}

/** What a follow button and a follower count need. */
export type FollowToggle = ReturnType<typeof useFollowToggle>;
