// My matches: `GET /me/matches` for the first paint and while the
// socket is down, and the live `matches` topic (snapshot, then one change
// per update, folded by ../model/matches.ts). Taking an open spot is
// `POST /events/{id}/take-spot`, an RSVP through the event's actor: its
// reply says who got the place when two subs tap at once.

import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { api, errorMessage } from '../../../lib/api';
import type { Match, MatchesDocument, MatchesUpdate, RinkEvent, TakeSpotReply } from '../../../lib/api-types';
import { isUnknownOutcome, newIdempotencyKey } from '../../../lib/command';
import { foldTopicUpdates, useTopic } from '../../../lib/ws';
import { spotClaimsAtom, type SpotClaim } from '../atoms';
import { activeMatches, foldMatchesUpdate, nextExpiry } from '../model/matches';
import { refreshStatuses, subsKeys } from './statuses';

const enc = encodeURIComponent;

export const MATCHES_TOPIC = 'matches';

// A matches update is one change: fold it into the snapshot instead of replacing it.
foldTopicUpdates(MATCHES_TOPIC, (held, update) => foldMatchesUpdate(held as MatchesDocument | undefined, update as MatchesUpdate));

/** Longest wait between re-checks of expiry (timers far ahead are clamped by browsers anyway). */
const MAX_TIMER_MS = 60 * 60_000;

/** `Date.now()` that moves on when the soonest of these matches runs out. */
function useExpiryClock(items: readonly Match[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = nextExpiry(items, now);
  useEffect(() => {
    if (next === null) return undefined;
    const t = setTimeout(() => setNow(Date.now()), Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now()) + 50));
    return () => clearTimeout(t);
  }, [next]);
  return now;
}

/** Subscribes to `matches` while mounted: my current matches, soonest first. */
export function useMatches() {
  const live = useTopic<MatchesDocument>(MATCHES_TOPIC);
  const rest = useQuery({
    queryKey: subsKeys.matches,
    queryFn: ({ signal }) => api.get<MatchesDocument>('/me/matches', { signal }),
    // Once the topic has spoken it is the truth; the REST read is the first paint and the fallback.
    enabled: live === null,
  });
  const items = live?.data.items ?? rest.data?.items ?? null;
  const now = useExpiryClock(items ?? []);
  const visible = useMemo(() => (items ? activeMatches(items, now) : null), [items, now]);
  return { matches: visible, isLive: live !== null, rest };
}

/** Take an open spot; the claim (with its outcome) lands in `spotClaimsAtom`. */
export function useTakeSpot() {
  const queryClient = useQueryClient();
  const [claims, setClaims] = useAtom(spotClaimsAtom);

  const take = useCallback(
    async (match: Match) => {
      const eventId = match.event?.id;
      if (!eventId) return;
      const put = (patch: Partial<SpotClaim>) =>
        setClaims((all) => {
          const base: SpotClaim = all[eventId] ?? { eventId, match, phase: 'sending', reply: null, error: null };
          return { ...all, [eventId]: { ...base, ...patch } };
        });
      put({ match, phase: 'sending', reply: null, error: null });
      try {
        const reply = await api.post<TakeSpotReply>(`/events/${enc(eventId)}/take-spot`, {}, { headers: { 'Idempotency-Key': newIdempotencyKey() } });
        put({ phase: 'done', reply });
      } catch (err) {
        if (!isUnknownOutcome(err)) {
          put({ phase: 'failed', error: errorMessage(err) });
        } else {
          // No answer: it may have gone through. The event says where I stand.
          put({ phase: 'checking' });
          try {
            const event = await api.get<RinkEvent>(`/events/${enc(eventId)}`);
            const status = event.viewer?.status;
            if (status === 'ATTENDING' || status === 'WAITLISTED') {
              put({ phase: 'done', reply: { status, waitlistRank: event.viewer?.waitlistRank ?? null, version: event.version, endedStatusIds: [] } });
            } else {
              put({ phase: 'failed', error: 'Rinkside did not confirm it. Check your connection and try again.' });
            }
          } catch {
            put({ phase: 'failed', error: 'Rinkside did not confirm it yet. Open the event to see whether you are in.' });
          }
        }
      }
      void refreshStatuses(queryClient);
      void queryClient.invalidateQueries({ queryKey: ['events', eventId] });
      void queryClient.invalidateQueries({ queryKey: ['home', 'events'] });
    },
    [queryClient, setClaims],
  );

  return { claims, take };
}
