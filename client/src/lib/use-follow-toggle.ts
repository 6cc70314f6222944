// Follow / unfollow a user, facility or team with an optimistic flip of the
// button and the follower count, then a refetch so the numbers are the
// server's. Shared by every feature with a follow button.
//
// One intent, one request: a tap while a request is in flight, or within
// DOUBLE_TAP_MS of the tap before it (the second half of a double tap), is
// ignored, so a double tap follows and stays followed. On pages that show
// one followable (a profile, a team, a rink) the counts also follow the
// public `follows:ID` topic, so they move when anyone follows.
//
// After the request succeeds the button keeps saying what the server now
// holds until the caller's own data agrees (a refetch brings it), so a list
// whose data is never refetched (the feed's suggestions) still reads
// "Following", and a second tap unfollows. A failed request puts the button
// back and leaves `error` for the caller to show.

import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { useTopic } from './ws';

export type FollowKind = 'users' | 'facilities' | 'teams';

/** Taps closer together than this are one intent. */
export const DOUBLE_TAP_MS = 600;

interface Followable {
  id: string;
  isFollowing: boolean;
  followerCount: number;
}

/** `follows:ID`'s document (docs/realtime.md). */
export interface FollowCounts {
  id: string;
  kind: 'USER' | 'FACILITY' | 'TEAM';
  followerCount: number;
  followingCount: number | null;
}

export function useFollowToggle(kind: FollowKind, target: Followable, { live = false }: { live?: boolean } = {}) {
  const queryClient = useQueryClient();
  const [override, setOverride] = useState<{ id: string; isFollowing: boolean; followerCount: number; settled: boolean } | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const inFlight = useRef(false);
  const lastTap = useRef(0);
  const counts = useTopic<FollowCounts>(live ? `follows:${target.id}` : null);

  const liveCount = counts?.data.id === target.id ? counts.data.followerCount : null;
  const mine = override !== null && override.id === target.id ? override : null;
  // Once the caller's data agrees with a settled follow, the data speaks again
  // (and later changes to it, from another tab, show).
  if (mine?.settled && mine.isFollowing === target.isFollowing) setOverride(null);
  const shown = mine && !(mine.settled && mine.isFollowing === target.isFollowing) ? mine : null;
  const current = shown
    ? { isFollowing: shown.isFollowing, followerCount: shown.settled ? (liveCount ?? shown.followerCount) : shown.followerCount }
    : { isFollowing: target.isFollowing, followerCount: liveCount ?? target.followerCount };

  const toggle = useCallback(async () => {
    const now = Date.now();
    if (inFlight.current || now - lastTap.current < DOUBLE_TAP_MS) return;
    inFlight.current = true;
    lastTap.current = now;
    const follow = !current.isFollowing;
    setError(null);
    setPending(true);
    const followerCount = Math.max(0, current.followerCount + (follow ? 1 : -1));
    setOverride({ id: target.id, isFollowing: follow, followerCount, settled: false });
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
      setOverride({ id: target.id, isFollowing: follow, followerCount, settled: true });
    } catch (err) {
      setOverride(null);
      setError(err instanceof Error ? err : new Error('Could not update follow'));
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, [current.isFollowing, current.followerCount, target.id, kind, queryClient]);

  return {
    isFollowing: current.isFollowing,
    followerCount: current.followerCount,
    /** People this user follows, live (`null` when not followed live or not a user). */
    followingCount: live && counts?.data.id === target.id ? counts.data.followingCount : null,
    toggle,
    pending,
    error,
  };
}

/** What a follow button and a follower count need. */
export type FollowToggle = ReturnType<typeof useFollowToggle>;
