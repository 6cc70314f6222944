// REST calls and query hooks for fair sides (docs/sides-and-bill.md › Fair
// sides): the split as the server keeps it, and the organiser's writes. Every
// write answers the whole document, which goes straight into the cache; the
// `event:ID` push that follows re-reads it on every other open page.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import type { Side, SidesAction, SidesDoc } from '../../../lib/api-types';
import { eventKeys } from './events';

const enc = encodeURIComponent;

export const fetchSides = (eventId: string, signal?: AbortSignal) => api.get<SidesDoc>(`/events/${enc(eventId)}/sides`, { signal });

/**
 * The sides of an event. A 404 (an event whose sides the server does not
 * keep, or one I may not read) is not retried: the card simply stays away.
 */
export function useSides(eventId: string, enabled = true) {
  return useQuery({
    queryKey: eventKeys.sides(eventId),
    queryFn: ({ signal }) => fetchSides(eventId, signal),
    enabled,
    retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
  });
}

/** Make, re-roll or re-balance (organiser). */
export function useSidesAction(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: SidesAction) => api.post<SidesDoc>(`/events/${enc(eventId)}/sides`, { action }),
    onSuccess: (doc) => queryClient.setQueryData(eventKeys.sides(eventId), doc),
  });
}

/** Two players trade sides, or one (a newcomer, or anyone) moves to the other side. */
export function useSwapSides(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userIds, side }: { userIds: [string] | [string, string]; side?: Side }) =>
      api.post<SidesDoc>(`/events/${enc(eventId)}/sides/swap`, side ? { userIds, side } : { userIds }),
    onSuccess: (doc) => queryClient.setQueryData(eventKeys.sides(eventId), doc),
  });
}
