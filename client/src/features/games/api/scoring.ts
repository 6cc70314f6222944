// The score keeper's actions. Each goes out as a WebSocket `gameAction`
// command while the socket is live (REST with an Idempotency-Key while it
// is not), and the score on screen moves with the reply: the reply *is*
// the committed state. An action whose reply never comes is reported as
// what it is, an unknown outcome: it may still be applied, so the console
// says so, re-reads the game, and lets the `game:ID` topic tell the truth.

import { useCallback } from 'react';
import { useAtom } from 'jotai';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api';
import type { GameDocument } from '../../../lib/api-types';
import { isUnknownOutcome, rejectionCode, useSendCommand } from '../../../lib/command';
import { gameKeys, newestGameDoc } from '../../../lib/games';
import { UnknownOutcomeError } from '../../../lib/ws';
import { scoringFlightAtomFamily, type ScoringActionKind } from '../atoms';
import type { GameActionBody, GameActionCommand } from '../model/commands';
import { postAction, putLineup } from './games';

export function useScoring(gameId: string) {
  const sendCommand = useSendCommand();
  const queryClient = useQueryClient();
  const [flight, setFlight] = useAtom(scoringFlightAtomFamily(gameId));

  const run = useCallback(
    async (kind: ScoringActionKind, label: string, call: () => Promise<GameDocument>): Promise<boolean> => {
      setFlight((f) => ({ ...f, phase: 'sending', action: kind, error: null, errorCode: null, unknown: null, done: null }));
      try {
        const doc = await call();
        setFlight((f) => ({ ...f, phase: 'idle', action: null, reply: newestGameDoc(f.reply, doc), done: { label, at: Date.now() } }));
        return true;
      } catch (err) {
        if (isUnknownOutcome(err)) {
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
      return run(body.type, label, async () => (await sendCommand<GameDocument>(command, (key) => postAction(gameId, body, key))).reply);
    },
    [run, sendCommand, gameId],
  );

  /** Replace who dressed for one side (REST only: lineups are not a socket command). */
  const setLineup = useCallback(
    (rosterId: string, userIds: string[], label: string) => run('LINEUP', label, () => putLineup(gameId, rosterId, userIds)),
    [run, gameId],
  );

  const dismiss = useCallback(() => setFlight((f) => ({ ...f, error: null, errorCode: null, unknown: null })), [setFlight]);

  return { flight, act, setLineup, dismiss };
}
