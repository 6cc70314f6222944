// REST reads for who dropped late (docs/pickup-night.md › History and the
// record): an event's history for its organisers, page by page, and a
// series' record (everyone's for its organisers, my own line otherwise).

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import type { Page } from '../../../lib/api-types';
import type { HistoryEntry, SeriesRecord } from '../model/history';

const enc = encodeURIComponent;

/** Entries per "Show more". */
export const HISTORY_PAGE = 20;

export const historyKeys = {
  event: (eventId: string) => ['events', eventId, 'history'] as const,
  record: (seriesId: string) => ['event-series', seriesId, 'record'] as const,
};

/** No retry for a refusal: the card stays away. */
const retryServerErrors = (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 2;

export function useEventHistory(eventId: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: historyKeys.event(eventId),
    queryFn: ({ signal, pageParam }) =>
      api.get<Page<HistoryEntry>>(`/events/${enc(eventId)}/history`, { signal, query: { limit: HISTORY_PAGE, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    retry: retryServerErrors,
  });
}

export function useSeriesRecord(seriesId: string | null) {
  return useQuery({
    queryKey: historyKeys.record(seriesId ?? ''),
    queryFn: ({ signal }) => api.get<SeriesRecord>(`/event-series/${enc(seriesId ?? '')}/record`, { signal }),
    enabled: Boolean(seriesId),
    retry: retryServerErrors,
  });
}
