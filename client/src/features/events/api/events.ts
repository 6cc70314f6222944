// REST calls and query hooks for events, RSVPs, payments and team links.

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { EventBill, EventSeries, EventType, GroupConfig, Page, RinkEvent, TeamRole } from '../../../lib/api-types';
import { PAGE_SIZE } from '../../../config/constants';
import type { AttendeesDoc, EventPayment, RsvpAction, RsvpReply } from '../model/types';
import type { HockeyPosition } from '../../../lib/api-types';

const enc = encodeURIComponent;


/** Filters of `GET /events`, as the list page keeps them. */
export interface EventListFilters {
  eventType?: EventType;
  facilityId?: string;
  seasonId?: string;
  /** RFC 3339: starting at or after. */
  from?: string;
  /** RFC 3339: starting before. */
  to?: string;
  createdByMe?: boolean;
  attendingMe?: boolean;
  includeCancelled?: boolean;
  /** With `facilityId`: also the community events there, which the rink does not list. */
  includeCommunity?: boolean;
}

export const eventKeys = {
  all: ['events'] as const,
  lists: ['events', 'list'] as const,
  list: (f: EventListFilters, limit: number) => ['events', 'list', f, limit] as const,
  detail: (id: string) => ['events', id] as const,
  attendees: (id: string) => ['events', id, 'attendees'] as const,
  payments: (id: string) => ['events', id, 'payments'] as const,
  sides: (id: string) => ['events', id, 'sides'] as const,
  bill: (id: string) => ['events', id, 'bill'] as const,
};

/** A weekly series (docs/series.md); outside `['events']`, so invalidated by name. */
export const seriesKeys = {
  detail: (id: string) => ['event-series', id] as const,
  bill: (id: string) => ['event-series', id, 'bill'] as const,
};

/** Which events of a series a change or a cancel is for: this one, or this and every later one. */
export type SeriesScope = 'this' | 'following';

/** `?scope=following`; nothing for `this` (the server's default, and what a one-off event takes). */
const scopeQuery = (scope: SeriesScope) => (scope === 'following' ? { scope } : undefined);

/** How a new event repeats: weekly on its wall-clock time until a day (inclusive). */
export interface RepeatInput {
  frequency: 'WEEKLY';
  /** `YYYY-MM-DD`, in `timeZone`. */
  until: string;
  /** The browser's IANA zone (the rink's wins on the server when there is one). */
  timeZone: string;
}

/** What `POST /events` takes: an edit body, and optionally how it repeats. */
export interface CreateEventInput extends EventInput {
  repeat?: RepeatInput;
}

/** Everything create and edit accept; on edit `null` clears a field. */
export interface EventInput {
  title?: string;
  description?: string | null;
  location?: string | null;
  startDate?: string;
  endDate?: string | null;
  imageUrl?: string | null;
  facilityId?: string | null;
  seasonId?: string | null;
  externalHomeTeamName?: string | null;
  externalAwayTeamName?: string | null;
  externalRink?: string | null;
  homeScore?: number | null;
  awayScore?: number | null;
  eventType?: EventType;
  maxSkaters?: number | null;
  maxGoalies?: number | null;
  groupConfig?: GroupConfig | null;
}

export function listQuery(f: EventListFilters, limit: number, cursor: string | null) {
  return {
    eventType: f.eventType,
    facilityId: f.facilityId,
    seasonId: f.seasonId,
    from: f.from,
    to: f.to,
    createdBy: f.createdByMe ? 'me' : undefined,
    attending: f.attendingMe ? 'me' : undefined,
    includeCancelled: f.includeCancelled ? true : undefined,
    includeCommunity: f.facilityId && f.includeCommunity ? true : undefined,
    limit,
    cursor,
  };
}

export function useEventList(filters: EventListFilters, limit = PAGE_SIZE) {
  return useInfiniteQuery({
    queryKey: eventKeys.list(filters, limit),
    queryFn: ({ signal, pageParam }) => api.get<Page<RinkEvent>>('/events', { signal, query: listQuery(filters, limit, pageParam) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

export const fetchEvent = (id: string, signal?: AbortSignal) => api.get<RinkEvent>(`/events/${enc(id)}`, { signal });

export function useEvent(id: string) {
  return useQuery({ queryKey: eventKeys.detail(id), queryFn: ({ signal }) => fetchEvent(id, signal) });
}

/** The attendees document over REST: the first paint, and the fallback while the socket is down. */
export function useAttendeesRest(id: string) {
  return useQuery({
    queryKey: eventKeys.attendees(id),
    queryFn: ({ signal }) => api.get<AttendeesDoc>(`/events/${enc(id)}/attendees`, { signal }),
    staleTime: 5_000,
  });
}

export function useEventPayments(id: string, enabled: boolean) {
  return useQuery({
    queryKey: eventKeys.payments(id),
    queryFn: ({ signal }) => api.get<EventPayment[]>(`/events/${enc(id)}/payments`, { signal }),
    enabled,
  });
}

export const putRsvp = (id: string, action: RsvpAction, position: HockeyPosition | undefined, idempotencyKey: string) =>
  api.put<RsvpReply>(`/events/${enc(id)}/rsvp`, position ? { action, position } : { action }, { headers: { 'Idempotency-Key': idempotencyKey } });

export const deleteAttendee = (id: string, userId: string, idempotencyKey: string) =>
  api.delete<RsvpReply>(`/events/${enc(id)}/attendees/${enc(userId)}`, { headers: { 'Idempotency-Key': idempotencyKey } });

/** After a change to an event: its page, its attendees and every list. */
export function refreshEvent(queryClient: QueryClient, id: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: eventKeys.detail(id), exact: true }),
    queryClient.invalidateQueries({ queryKey: eventKeys.attendees(id) }),
    queryClient.invalidateQueries({ queryKey: eventKeys.lists }),
    queryClient.invalidateQueries({ queryKey: ['home', 'events'] }),
  ]);
}

export function useEventSeries(id: string | null) {
  return useQuery({
    queryKey: seriesKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<EventSeries>(`/event-series/${enc(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/**
 * After a change to a series event: with `following` other events changed
 * too, so every event read goes stale (the `['events']` prefix), with `this`
 * only this one; the series' list of dates in both cases.
 */
function refreshSeries(queryClient: QueryClient, event: RinkEvent, scope: SeriesScope) {
  if (!event.seriesId) return;
  void queryClient.invalidateQueries({ queryKey: seriesKeys.detail(event.seriesId) });
  if (scope === 'following') void queryClient.invalidateQueries({ queryKey: eventKeys.all });
}

export function useCreateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateEventInput) => api.post<RinkEvent>('/events', input),
    onSuccess: (event) => {
      queryClient.setQueryData(eventKeys.detail(event.id), event);
      void queryClient.invalidateQueries({ queryKey: eventKeys.lists });
      void queryClient.invalidateQueries({ queryKey: ['home', 'events'] });
    },
  });
}

export function useUpdateEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ patch, scope = 'this' }: { patch: EventInput; scope?: SeriesScope }) =>
      api.patch<RinkEvent>(`/events/${enc(id)}`, patch, { query: scopeQuery(scope) }),
    onSuccess: (event, { scope = 'this' }) => {
      queryClient.setQueryData(eventKeys.detail(id), event);
      void queryClient.invalidateQueries({ queryKey: eventKeys.attendees(id) });
      void queryClient.invalidateQueries({ queryKey: eventKeys.lists });
      void queryClient.invalidateQueries({ queryKey: ['home', 'events'] });
      refreshSeries(queryClient, event, scope);
    },
  });
}

/** The longest cancellation reason the server takes (characters after trimming). */
export const CANCEL_REASON_MAX_CHARS = 500;

export interface CancelInput {
  scope?: SeriesScope;
  /** Why, shown on the event and told to everyone (blank: none). */
  reason?: string;
}

export function useCancelEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scope = 'this', reason = '' }: CancelInput) =>
      api.post<RinkEvent>(`/events/${enc(id)}/cancel`, reason.trim() ? { reason: reason.trim() } : undefined, { query: scopeQuery(scope) }),
    onSuccess: (event, { scope = 'this' }) => {
      queryClient.setQueryData(eventKeys.detail(id), event);
      void refreshEvent(queryClient, id);
      refreshSeries(queryClient, event, scope);
    },
  });
}

export function useDeleteEvent(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`/events/${enc(id)}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: eventKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: eventKeys.lists });
      void queryClient.invalidateQueries({ queryKey: ['home', 'events'] });
    },
  });
}

export function useMarkPaid(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, isPaid }: { userId: string; isPaid: boolean }) =>
      api.put<EventPayment>(`/events/${enc(id)}/payments/${enc(userId)}`, { isPaid }),
    onSuccess: (payment) => {
      queryClient.setQueryData<EventPayment[]>(eventKeys.payments(id), (old) =>
        old ? [...old.filter((p) => p.userId !== payment.userId), payment] : [payment],
      );
      void queryClient.invalidateQueries({ queryKey: eventKeys.attendees(id) });
      // The ice bill: the share's state at once, its totals (collected, outstanding, credit) on the re-read.
      queryClient.setQueryData<EventBill>(eventKeys.bill(id), (old) =>
        old ? { ...old, shares: old.shares.map((s) => (s.userId === payment.userId ? { ...s, isPaid: payment.isPaid } : s)) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: eventKeys.bill(id) });
    },
  });
}

export function useLinkTeam(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, role }: { teamId: string; role: TeamRole }) => api.put<RinkEvent>(`/events/${enc(id)}/teams/${enc(teamId)}`, { role }),
    onSuccess: (event) => queryClient.setQueryData(eventKeys.detail(id), event),
  });
}

export function useUnlinkTeam(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (teamId: string) => api.delete(`/events/${enc(id)}/teams/${enc(teamId)}`),
    onSuccess: (_void, teamId) => {
      queryClient.setQueryData<RinkEvent>(eventKeys.detail(id), (old) => (old ? { ...old, teams: old.teams.filter((t) => t.teamId !== teamId) } : old));
      void queryClient.invalidateQueries({ queryKey: eventKeys.detail(id), exact: true });
    },
  });
}

/**
 * The rink's staff list the event under the rink's name (`true`) or take the
 * name off (`false`; a season's event answers 409 `season_event`). The rink's
 * event list and the home page change with it.
 */
export function useSetHosting(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hosted: boolean) =>
      hosted ? api.put<RinkEvent>(`/events/${enc(id)}/hosting`) : api.delete<RinkEvent>(`/events/${enc(id)}/hosting`),
    onSuccess: (event) => {
      queryClient.setQueryData(eventKeys.detail(id), event);
      void queryClient.invalidateQueries({ queryKey: eventKeys.lists });
      void queryClient.invalidateQueries({ queryKey: ['home', 'events'] });
    },
  });
}

// ── Pickers and names (cache keys shared with the facilities/teams/profile features) ──

