// The schedule feature's reads and writes: my schedule in a window, a
// person's and a team's public one, the rosters I play on, my answer to an
// event (the RSVP endpoint) or to a league game (my availability on the
// roster), and my calendar feed.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import type { CalendarFeed, NewCalendarFeed, Schedule, ScheduleItem } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { randomId } from '../../../lib/random-id';
import { answerCall, type Answer } from '../model/schedule';

const enc = encodeURIComponent;

export interface Window {
  from: string;
  to: string;
}

/** From `start` for `days` days, as the API takes it. */
export function windowFrom(start: Date, days: number): Window {
  return { from: start.toISOString(), to: new Date(start.getTime() + days * 24 * 60 * 60 * 1000).toISOString() };
}

export function useMySchedule(window?: Window) {
  return useQuery({
    queryKey: ['schedule', 'me', window?.from ?? null, window?.to ?? null],
    queryFn: ({ signal }) => api.get<Schedule>('/me/schedule', { signal, query: { ...window } }),
  });
}

export function useUserSchedule(userId: string) {
  return useQuery({
    queryKey: ['schedule', 'user', userId],
    queryFn: ({ signal }) => api.get<Schedule>(`/users/${enc(userId)}/schedule`, { signal }),
  });
}

export function useTeamUpcoming(teamId: string) {
  return useQuery({
    queryKey: ['schedule', 'team', teamId],
    queryFn: ({ signal }) => api.get<Schedule>(`/teams/${enc(teamId)}/upcoming`, { signal }),
  });
}

/**
 * Answer an event or a native league game in one tap (`answerCall` says
 * where, by kind); every schedule on screen reloads with the new standing.
 */
export function useAnswer() {
  const client = useQueryClient();
  // Rows also show on public schedules; only my own items (signed in) offer answers.
  const myId = useAuth().user?.id ?? '';
  return useMutation({
    mutationFn: ({ item, answer }: { item: ScheduleItem; answer: Answer }) => {
      const call = answerCall(item, answer, myId);
      return api.put<unknown>(call.path, call.body, call.keyed ? { headers: { 'Idempotency-Key': randomId('rsvp') } } : undefined);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['schedule'] }),
  });
}

export function useCalendarFeed() {
  return useQuery({
    queryKey: ['calendar-feed'],
    queryFn: ({ signal }) => api.get<CalendarFeed>('/me/calendar-feed', { signal }),
  });
}

export function useMakeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<NewCalendarFeed>('/me/calendar-feed'),
    onSuccess: () => client.invalidateQueries({ queryKey: ['calendar-feed'] }),
  });
}

export function useRevokeCalendarFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/me/calendar-feed'),
    onSuccess: () => client.invalidateQueries({ queryKey: ['calendar-feed'] }),
  });
}
