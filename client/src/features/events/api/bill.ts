// REST calls and query hooks for the ice bill (docs/sides-and-bill.md › The
// ice bill): one event's bill and shares, the series' season of ice, and the
// rink staff's grant of payment collection. Writes answer the whole bill,
// which goes straight into the cache; the event page re-reads itself (the
// viewer's owes/paid) on the `event:ID` push that follows.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import type { BillInput, EventBill, PaymentCollection, SeriesBill, SeriesBillInput } from '../../../lib/api-types';
import { eventKeys, seriesKeys } from './events';

const enc = encodeURIComponent;

/** No retry for a refusal (404 when there is nothing I may read): the card stays away. */
const retryServerErrors = (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 2;

export function useBill(eventId: string, enabled = true) {
  return useQuery({
    queryKey: eventKeys.bill(eventId),
    queryFn: ({ signal }) => api.get<EventBill>(`/events/${enc(eventId)}/bill`, { signal }),
    enabled,
    retry: retryServerErrors,
  });
}

/** Cost, goalie policy and whether the organiser pays (organiser who may collect). */
export function useSaveBill(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BillInput) => api.put<EventBill>(`/events/${enc(eventId)}/bill`, input),
    onSuccess: (bill) => queryClient.setQueryData(eventKeys.bill(eventId), bill),
  });
}

/** "Bill the players": every share is stored and owed from now on. */
export function useCloseBill(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<EventBill>(`/events/${enc(eventId)}/bill/close`),
    onSuccess: (bill) => queryClient.setQueryData(eventKeys.bill(eventId), bill),
  });
}

/**
 * The rink's staff let an organiser collect payments (or stop them). The
 * bill says whether they can, so it is read again, and so is the event
 * (its viewer block).
 */
export function useSetPaymentCollection(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, enabled }: { userId: string; enabled: boolean }) =>
      api.put<PaymentCollection>(`/users/${enc(userId)}/payment-collection`, { enabled }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: eventKeys.bill(eventId) });
      void queryClient.invalidateQueries({ queryKey: eventKeys.detail(eventId), exact: true });
    },
  });
}

export function useSeriesBill(seriesId: string | null) {
  return useQuery({
    queryKey: seriesKeys.bill(seriesId ?? ''),
    queryFn: ({ signal }) => api.get<SeriesBill>(`/event-series/${enc(seriesId ?? '')}/bill`, { signal }),
    enabled: Boolean(seriesId),
    retry: retryServerErrors,
  });
}

/** The season's total over its weeks: each week's bill changes with it. */
export function useSaveSeriesBill(seriesId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SeriesBillInput) => api.put<SeriesBill>(`/event-series/${enc(seriesId)}/bill`, input),
    onSuccess: (bill) => {
      queryClient.setQueryData(seriesKeys.bill(seriesId), bill);
      // Every week's own bill takes its share of the new total.
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'events' && q.queryKey[2] === 'bill' });
    },
  });
}
