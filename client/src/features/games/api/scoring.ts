// The score keeper's actions. Each goes out as a WebSocket `gameAction`
// command while the socket is live (REST with an Idempotency-Key while it
// is not), and the score on screen moves with the reply: the reply *is*
// the committed state. An action whose reply never comes is reported as
// what it is, an unknown outcome: it may still be applied, so the console
// says so, re-reads the game, and lets the `game:ID` topic tell the truth.
// An action sent over REST while Rinkside cannot be reached at all is
// queued with its Idempotency-Key and sent again, with the same key, the
// moment the socket is live: the server applies it at most once, and the
// score keeper sees it waiting rather than lost (docs/walkthrough.md).

import { useCallback, useEffect } from 'react';
import { useAtom } from 'jotai';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../../lib/api';
import type { GameDocument } from '../../../lib/api-types';
import { isUnknownOutcome, newIdempotencyKey, rejectionCode, useSendCommand } from '../../../lib/command';
import { gameKeys, newestGameDoc } from '../../../lib/games';
import { UnknownOutcomeError, useConnectionState } from '../../../lib/ws';
import { scoringFlightAtomFamily, type ScoringActionKind } from '../atoms';
import type { GameActionBody, GameActionCommand } from '../model/commands';
import { postAction, putLineup } from './games';

/** Nothing reached the server: the fetch itself failed. */
function unreachable(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'network_error';
}

/**
 * The console's scoring. `retries` is true in the one component that sends a
 * queued action again when the connection is back (the hook is used twice on
 * the page; the retry must go once).
 */
export function useScoring(gameId: string, { retries = false }: { retries?: boolean } = {}) {
  const sendCommand = useSendCommand();
  const connection = useConnectionState();
  const queryClient = useQueryClient();
  const [flight, setFlight] = useAtom(scoringFlightAtomFamily(gameId));

  const run = useCallback(
    async (kind: ScoringActionKind, label: string, call: () => Promise<GameDocument>, retry?: { body: GameActionBody; key: string }): Promise<boolean> => {
      setFlight((f) => ({ ...f, phase: 'sending', action: kind, error: null, errorCode: null, unknown: null, done: null, queued: null }));
      try {
        const doc = await call();
        setFlight((f) => ({ ...f, phase: 'idle', action: null, reply: newestGameDoc(f.reply, doc), done: { label, at: Date.now() } }));
        return true;
      } catch (err) {
        if (retry && unreachable(err)) {
          setFlight((f) => ({ ...f, phase: 'idle', action: null, queued: { ...retry, label } }));
        } else if (isUnknownOutcome(err)) {
          const wasSent = err instanceof UnknownOutcomeError ? err.wasSent : true;
          setFlight((f) => ({ ...f, phase: 'idle', action: null, unknown: { label, wasSent } }));
          // The topic will say what happened; the REST read covers a socket that is down.
          void queryClient.refetchQueries({ queryKey: gameKeys.detail(gameId), exact: true }, { cancelRefetch: false });
        } else {
          setFlight((f) => ({ ...f, phase: 'idle', action: null, error: errorMessage(err), errorCode: rejectionCode(err) }));
        }
        return false;
      }
    },
    [gameId, queryClient, setFlight],
  );

  /** Post one scoring action; resolves true when the server applied it. */
  const act = useCallback(
    (body: GameActionBody, label: string) => {
      const command: GameActionCommand = { kind: 'gameAction', gameId, ...body };
      // The key is chosen here so that a REST attempt that never reached
      // the server can be sent again as the same command.
      const key = newIdempotencyKey();
      return run(body.type, label, async () => (await sendCommand<GameDocument>(command, () => postAction(gameId, body, key))).reply, { body, key });
    },
    [run, sendCommand, gameId],
  );

  // Back online: the queued action goes again with its key.
  const queued = flight.queued;
  const busy = flight.phase !== 'idle';
  useEffect(() => {
    if (!retries || connection !== 'live' || !queued || busy) return;
    void run(queued.body.type, queued.label, () => postAction(gameId, queued.body, queued.key), { body: queued.body, key: queued.key });
  }, [retries, connection, queued, busy, run, gameId]);

  /** Replace who dressed for one side (REST only: lineups are not a socket command). */
  const setLineup = useCallback(
    (rosterId: string, userIds: string[], label: string) => run('LINEUP', label, () => putLineup(gameId, rosterId, userIds)),
    [run, gameId],
  );

  const dismiss = useCallback(() => setFlight((f) => ({ ...f, error: null, errorCode: null, unknown: null, queued: null })), [setFlight]);

  return { flight, act, setLineup, dismiss };
}
