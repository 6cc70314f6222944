// Reads and writes of a roster's availability board (docs/availability.md):
// the board (a REST read for the first paint and while the socket is down,
// the `availability:{rosterId}` topic after), a player's answer, the
// staff's nudge, the rules, and the team's call for subs when short.
// Every write also arrives as a topic push; a write's reply is shown at
// once meanwhile (model/availability.ts › boardView).

import { useCallback, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import type { AvailabilityAnswer, AvailabilityBoard, AvailabilityRules, GameAvailability, NudgeResult, Status } from '../../../lib/api-types';
import { availabilityTopic, putAvailabilityAnswer, withGame } from '../../../lib/availability';
import { myKeys } from '../../../lib/me';
import { useTopic, useTopicUpdates } from '../../../lib/ws';
import { boardView, type SubsCallBody, type WrittenGame } from '../model/availability';

const enc = encodeURIComponent;

export const availabilityKeys = {
  board: (rosterId: string) => ['rosters', rosterId, 'availability'] as const,
  rules: (rosterId: string) => ['rosters', rosterId, 'availability-rules'] as const,
  // The sub market's reads (lib/me.ts), refreshed after a call is posted.
  myStatuses: myKeys.statuses,
  statuses: ['statuses'] as const,
};

/** No retry for a refusal (403/404: not mine to read, or a server without the board): the card stays away. */
const retryServerErrors = (count: number, err: unknown) => !(err instanceof ApiError && err.status < 500) && count < 2;

export const fetchAvailabilityBoard = (rosterId: string, signal?: AbortSignal) => api.get<AvailabilityBoard>(`/rosters/${enc(rosterId)}/availability`, { signal });

/**
 * The roster's board while mounted: follows the topic, with the REST read
 * under it, and takes each write's reply (`took`) until a source has
 * something newer.
 */
export function useAvailabilityBoard(rosterId: string, enabled = true) {
  const live = useTopic<AvailabilityBoard>(enabled ? availabilityTopic(rosterId) : null);
  const rest = useQuery({
    queryKey: availabilityKeys.board(rosterId),
    queryFn: ({ signal }) => fetchAvailabilityBoard(rosterId, signal),
    enabled,
    retry: retryServerErrors,
  });
  const [written, setWritten] = useState<Record<string, WrittenGame>>({});
  const liveSeq = live?.seq ?? null;
  const restAt = rest.dataUpdatedAt;
  const took = useCallback((game: GameAvailability) => setWritten((w) => ({ ...w, [game.gameId]: { game, liveSeq, restAt } })), [liveSeq, restAt]);
  const board = boardView({ live, rest: rest.data ?? null, restAt }, written);
  return { board, isLive: live !== null, rest, took };
}

/**
 * An imported game's answers are its event's RSVPs (docs/availability.md),
 * given on the event page as well as here: while the game is shown, every
 * push of its `event:` topic reads the game's availability again.
 */
export function useImportedGameAnswers(rosterId: string, game: GameAvailability, took: (game: GameAvailability) => void) {
  const topic = game.kind === 'EVENT' ? `event:${game.gameId}` : null;
  useTopicUpdates(topic, () => {
    api.get<GameAvailability>(`/rosters/${enc(rosterId)}/availability/${enc(game.gameId)}`).then(took, () => undefined);
  });
}

/**
 * A write's reply, the game as it now stands, goes into the REST copy too
 * (what shows while the socket is down); my schedule, which shows my
 * answer, is read again.
 */
function afterWrite(queryClient: QueryClient, rosterId: string, game: GameAvailability) {
  queryClient.setQueryData<AvailabilityBoard>(availabilityKeys.board(rosterId), (old) => (old ? { ...old, games: withGame(old.games, game) } : old));
  void queryClient.invalidateQueries({ queryKey: ['schedule'] });
}

export interface AnswerVars {
  gameId: string;
  userId: string;
  answer: AvailabilityAnswer;
}

/** One player's answer to one game (mine, or a player's by the staff); the reply is the game as it now stands. */
export function useSetAvailability(rosterId: string, took: (game: GameAvailability) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ gameId, userId, answer }: AnswerVars) => putAvailabilityAnswer(rosterId, gameId, userId, answer),
    onSuccess: (game) => {
      took(game);
      afterWrite(queryClient, rosterId, game);
    },
  });
}

/** The staff nudge everyone who has not answered a game. */
export function useNudge(rosterId: string, took: (game: GameAvailability) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    // An empty object rather than no body: a server that reads a JSON body takes it, one that reads none ignores it.
    mutationFn: ({ game }: { game: GameAvailability }) => api.post<NudgeResult>(`/rosters/${enc(rosterId)}/availability/${enc(game.gameId)}/nudge`, {}),
    onSuccess: (result, { game }) => {
      if (!result.nudgedAt) return;
      const nudged = { ...game, nudgedAt: result.nudgedAt };
      took(nudged);
      afterWrite(queryClient, rosterId, nudged);
    },
  });
}

export function useAvailabilityRules(rosterId: string, enabled = true) {
  return useQuery({
    queryKey: availabilityKeys.rules(rosterId),
    queryFn: ({ signal }) => api.get<AvailabilityRules>(`/rosters/${enc(rosterId)}/availability-rules`, { signal }),
    enabled,
    retry: retryServerErrors,
  });
}

/** The staff's rules: every game's lock and shortfall change with them, so the board is read again too. */
export function useSaveAvailabilityRules(rosterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: AvailabilityRules) => api.put<AvailabilityRules>(`/rosters/${enc(rosterId)}/availability-rules`, rules),
    onSuccess: (rules) => {
      queryClient.setQueryData(availabilityKeys.rules(rosterId), rules);
      void queryClient.invalidateQueries({ queryKey: availabilityKeys.board(rosterId) });
    },
  });
}

/** Post the team's call for subs for a short game. */
export function usePostSubsCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubsCallBody) => api.post<Status>('/statuses', body),
    onSuccess: (status) => {
      queryClient.setQueryData<{ items: Status[] }>(availabilityKeys.myStatuses, (old) => (old ? { items: [status, ...old.items.filter((s) => s.id !== status.id)] } : { items: [status] }));
      void queryClient.invalidateQueries({ queryKey: availabilityKeys.statuses });
    },
  });
}
