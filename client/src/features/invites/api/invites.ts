// REST calls and query hooks for invites (docs/invites.md): a roster's or
// an event's list and its writes (for those who may invite there), and the
// public preview and the accept of `/invite/:code`.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api';
import type { Accepted, Invite, InvitePreview, NewInviteInput } from '../../../lib/api-types';
import type { InviteTarget } from '../model/invites';

const enc = encodeURIComponent;

export const inviteKeys = {
  list: (t: InviteTarget) => ['invites', t.kind, t.id] as const,
  preview: (code: string) => ['invites', 'code', code] as const,
};

const listPath = (t: InviteTarget) => `/${t.kind === 'ROSTER' ? 'rosters' : 'events'}/${enc(t.id)}/invites`;

/**
 * The invites of a roster or an event, newest first. Nothing is pushed
 * about them, but each use changes the roster (a player, a request) or the
 * event (an RSVP), whose topic the page follows: `version` is that
 * document's seq/version, and a new one re-reads the list, so "1 of 25
 * used" moves while the card is on screen.
 */
export function useInvites(target: InviteTarget, version: number | null) {
  return useQuery({
    queryKey: [...inviteKeys.list(target), version],
    queryFn: ({ signal }) => api.get<Invite[]>(listPath(target), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateInvite(target: InviteTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewInviteInput) => api.post<Invite>(listPath(target), body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: inviteKeys.list(target) }),
  });
}

export function useRevokeInvite(target: InviteTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.delete(`/invites/${enc(code)}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: inviteKeys.list(target) }),
  });
}

/** What `/invite/:code` shows; public, so it is asked without a token (and works signed out). */
export function useInvitePreview(code: string) {
  return useQuery({
    queryKey: inviteKeys.preview(code),
    queryFn: ({ signal }) => api.get<InvitePreview>(`/invites/${enc(code)}`, { signal, anonymous: true }),
    enabled: code.length > 0,
  });
}

/**
 * Use the invite. On success the roster or event it led to is read afresh
 * (a page cached from before would not show the new player). A refusal
 * re-reads the preview: a closed invite then says which.
 */
export function useAcceptInvite(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Accepted>(`/invites/${enc(code)}/accept`),
    onSuccess: (accepted) => {
      // The rosters' and events' own query keys (features/rosters, features/events): ['rosters', id], ['events', id].
      if (accepted.rosterId) void queryClient.invalidateQueries({ queryKey: ['rosters', accepted.rosterId] });
      if (accepted.eventId) void queryClient.invalidateQueries({ queryKey: ['events', accepted.eventId] });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status !== 401) void queryClient.invalidateQueries({ queryKey: inviteKeys.preview(code) });
    },
  });
}
