// REST calls and query hooks for the organiser's pickup night
// (docs/pickup-night.md): the RSVP rules of an event and of a series, the
// series' regulars, and check-in at the rink. Writes answer the new state,
// which goes straight into the cache; the event itself is re-read after a
// rules change (its `rsvpRules` moments and the viewer's standing change
// with it), and every other open page follows the `event:ID` push.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import type { CheckIn, CheckIns, RsvpRules, RsvpRulesInput, SeriesRegulars } from '../../../lib/api-types';
import { eventKeys, seriesKeys } from './events';

const enc = encodeURIComponent;

export const pickupKeys = {
  eventRules: (id: string) => [...eventKeys.detail(id), 'rsvp-rules'] as const,
  checkIns: (id: string) => [...eventKeys.detail(id), 'check-ins'] as const,
  seriesRules: (id: string) => [...seriesKeys.detail(id), 'rsvp-rules'] as const,
  regulars: (id: string) => [...seriesKeys.detail(id), 'regulars'] as const,
};

/** No retry for a refusal (403/404: not mine to read): the card stays away. */
const retryServerErrors = (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 2;

export function useEventRules(eventId: string, enabled = true) {
  return useQuery({
    queryKey: pickupKeys.eventRules(eventId),
    queryFn: ({ signal }) => api.get<RsvpRules>(`/events/${enc(eventId)}/rsvp-rules`, { signal }),
    enabled,
    retry: retryServerErrors,
  });
}

export function useSaveEventRules(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RsvpRulesInput) => api.put<RsvpRules>(`/events/${enc(eventId)}/rsvp-rules`, input),
    onSuccess: (rules) => {
      queryClient.setQueryData(pickupKeys.eventRules(eventId), rules);
      // The event's own moments (openToAllAt, closesAt) and so everyone's sentences.
      void queryClient.invalidateQueries({ queryKey: eventKeys.detail(eventId), exact: true });
    },
  });
}

export function useSeriesRules(seriesId: string, enabled = true) {
  return useQuery({
    queryKey: pickupKeys.seriesRules(seriesId),
    queryFn: ({ signal }) => api.get<RsvpRules>(`/event-series/${enc(seriesId)}/rsvp-rules`, { signal }),
    enabled,
    retry: retryServerErrors,
  });
}

/** The series' rules: every week not yet started takes them, so every event read goes stale. */
export function useSaveSeriesRules(seriesId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RsvpRulesInput) => api.put<RsvpRules>(`/event-series/${enc(seriesId)}/rsvp-rules`, input),
    onSuccess: (rules) => {
      queryClient.setQueryData(pickupKeys.seriesRules(seriesId), rules);
      void queryClient.invalidateQueries({ queryKey: eventKeys.all });
    },
  });
}

export function useSeriesRegulars(seriesId: string, enabled = true) {
  return useQuery({
    queryKey: pickupKeys.regulars(seriesId),
    queryFn: ({ signal }) => api.get<SeriesRegulars>(`/event-series/${enc(seriesId)}/regulars`, { signal }),
    enabled,
    retry: retryServerErrors,
  });
}

/**
 * Add or remove a regular of a series (both idempotent). The list is read
 * again (suggestions move with it), and so is every event: their
 * `viewer.isRegular` and the organisers' lists of regulars change.
 */
export function useSetRegular(seriesId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, regular }: { userId: string; regular: boolean }) =>
      regular ? api.put(`/event-series/${enc(seriesId)}/regulars/${enc(userId)}`) : api.delete(`/event-series/${enc(seriesId)}/regulars/${enc(userId)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: pickupKeys.regulars(seriesId) });
      void queryClient.invalidateQueries({ queryKey: eventKeys.all });
    },
  });
}

export function useCheckIns(eventId: string, enabled = true) {
  return useQuery({
    queryKey: pickupKeys.checkIns(eventId),
    queryFn: ({ signal }) => api.get<CheckIns>(`/events/${enc(eventId)}/check-ins`, { signal }),
    enabled,
    retry: retryServerErrors,
  });
}

/** A row into the list as the server answered it, the count moved by it. */
function withRow(list: CheckIns | undefined, row: CheckIn): CheckIns | undefined {
  if (!list) return list;
  const items = list.items.map((r) => (r.userId === row.userId ? row : r));
  return { ...list, items, checkedIn: items.filter((r) => r.checkedInAt !== null).length };
}

/** The organiser checks someone in (or undoes it) with one tap. */
export function useToggleCheckIn(eventId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, checkedIn }: { userId: string; checkedIn: boolean }): Promise<CheckIn | CheckIns> =>
      checkedIn ? api.put<CheckIn>(`/events/${enc(eventId)}/check-ins/${enc(userId)}`) : api.delete<CheckIns>(`/events/${enc(eventId)}/check-ins/${enc(userId)}`),
    onSuccess: (answer) => {
      // A check-in answers the row, an undo the whole list: either goes in at once; the re-read settles the rest.
      if ('items' in answer) queryClient.setQueryData(pickupKeys.checkIns(eventId), answer);
      else queryClient.setQueryData<CheckIns>(pickupKeys.checkIns(eventId), (old) => withRow(old, answer));
      void queryClient.invalidateQueries({ queryKey: pickupKeys.checkIns(eventId) });
    },
  });
}

/** A player checks themselves in with the code from the rink. */
export const postCheckIn = (eventId: string, code: string) => api.post<CheckIn>(`/events/${enc(eventId)}/check-in`, { code });
