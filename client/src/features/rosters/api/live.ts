// The live side of a roster page: `roster:ID` pushes the whole public roster
// document (players, stats, request states) after every write, so a requester
// sees the approval, and deciders see new requests, without reloading.

import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Roster, RosterDocument } from '../../../lib/api-types';
import { useTopic } from '../../../lib/ws';
import { newestRoster } from '../model/roster';
import { rosterKeys } from './rosters';

/** Pushes are gathered this long before the REST roster (with `viewer`) is re-read. */
const REFRESH_DEBOUNCE_MS = 300;

export const rosterTopic = (id: string) => `roster:${id}`;

/**
 * Subscribes to the roster while mounted; returns the newest document and
 * whether a push has arrived. A push newer than the REST copy also re-reads
 * the roster, since what the viewer may do (`viewer`) can change with it
 * (made captain, taken off…).
 */
export function useLiveRoster(rest: Roster): { doc: RosterDocument; isLive: boolean } {
  const live = useTopic<RosterDocument>(rosterTopic(rest.id));
  const queryClient = useQueryClient();
  const pushedSeq = live?.seq ?? 0;
  useEffect(() => {
    if (pushedSeq <= rest.seq) return undefined;
    const t = setTimeout(() => {
      void queryClient.refetchQueries({ queryKey: rosterKeys.detail(rest.id), exact: true }, { cancelRefetch: false });
    }, REFRESH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [pushedSeq, rest.seq, rest.id, queryClient]);
  return { doc: newestRoster(rest, live?.data ?? null), isLive: live !== null };
}
