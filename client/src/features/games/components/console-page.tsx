// /games/:id/score — the score keeper's console, built for a phone held in
// one hand at the bench: the score on top, the game clock with one big
// START / STOP, the strength and who is in the box, two huge GOAL buttons,
// penalties by type, a +1 per side for shots, END PERIOD and FINAL (which
// asks first), the goalies of record with the pull, and UNDO always one tap
// away at the bottom (no confirmation: it is the fix for a wrong tap).
// Goals take a scorer and up to two assists in two more taps.
//
// The score moves with the server's reply to each action, never before
// it; an action whose reply does not come is shown as an unknown outcome
// while the `game:ID` topic says what really happened. The page takes the
// whole screen (no app navigation to tap by mistake).

import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../../lib/api';
import type { Game, GameDocument } from '../../../lib/api-types';
import { describeLog, gameKeys, gameStateLine, PENALTY_LABELS, periodShort, playerTag, useLiveGame } from '../../../lib/games';
import { formatMinutes } from '../../../lib/game-clock';
import { serverNow } from '../../../lib/time-sync';
import { useConnectionState, type ConnectionState } from '../../../lib/ws';
import type { GameActionBody } from '../model/commands';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CheckIcon, ChevronLeftIcon, RinkIcon, WhistleIcon } from '../../../components/ui/icons';
import { PageSpinner, Spinner } from '../../../components/ui/spinner';
import { useScoring } from '../api/scoring';
import type { ScoringFlight } from '../atoms';
import { pickerStep, type PickerEvent, type PickerState } from '../model/picker';
import { periodStep } from '../model/period';
import { clockAtTap } from '../model/clock-at-tap';
import { ClockControl } from './clock-control';
import { GoalieControl } from './goalie-control';
import { ShotsControl } from './shots-control';
import { StrengthBar } from './strength-bar';
import { UndoIcon } from './game-icons';
import { LineupEditor } from './lineup-editor';
import { PickerSheet } from './picker-sheet';
import { PlayByPlay } from './play-by-play';
import { ScorekeepersCard } from './scorekeepers-card';
import '../games.css';
import '../console-controls.css';

/** How long "Goal recorded" stays in the status bar. */
const DONE_VISIBLE_MS = 4000;

/** A puck drop further than this from the scheduled time is confirmed first (docs/walkthrough.md). */
export const START_CONFIRM_MS = 12 * 3600 * 1000;

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'Connecting',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
};

function ConnectionPill() {
  const state = useConnectionState();
  return (
    <span className={`sk-conn sk-conn--${state}`} role="status" data-testid="console-connection" data-state={state}>
      <span className="sk-conn__dot" aria-hidden="true" />
      {CONNECTION_LABELS[state]}
    </span>
  );
}

function ConsoleFrame({ gameId, title, children }: { gameId: string; title: ReactNode; children: ReactNode }) {
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  return (
    <div className="sk" data-testid="scorekeeper-console">
      <header className="sk-top">
        <Link to={`/games/${gameId}`} className="sk-top__back" aria-label="Back to the game page">
          <ChevronLeftIcon size={22} />
        </Link>
        <div className="sk-top__title">{title}</div>
        <ConnectionPill />
      </header>
      <main className="sk-main">{children}</main>
    </div>
  );
}

export function ScorekeeperConsolePage() {
  const { id = '' } = useParams();
  const scoring = useScoring(id);
  const { game, query } = useLiveGame(id, scoring.flight.reply);
  const queryClient = useQueryClient();
  const forbidden = scoring.flight.errorCode === 'forbidden';
  const connection = useConnectionState();

  // Refused as not allowed: the rights changed under us; read them again.
  useEffect(() => {
    if (forbidden) void queryClient.invalidateQueries({ queryKey: gameKeys.detail(id), exact: true });
  }, [forbidden, id, queryClient]);

  // A read that failed while Rinkside was away is read again as soon as the
  // socket is back: the console recovers by itself (no Try again needed).
  const failed = query.isError;
  const refetch = query.refetch;
  useEffect(() => {
    if (connection === 'live' && failed) void refetch();
  }, [connection, failed, refetch]);

  if (query.isPending) {
    return (
      <ConsoleFrame gameId={id} title="Score keeper">
        <PageSpinner label="Loading game" />
      </ConsoleFrame>
    );
  }
  // A failed re-read keeps the game we have: the console stays usable and
  // the topic keeps the score; only a first read that failed has nothing to show.
  if (!game) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <ConsoleFrame gameId={id} title="Score keeper">
        <Card>
          <EmptyState
            icon={<RinkIcon size={28} />}
            title={notFound ? 'This game is not on Rinkside' : 'Could not load this game'}
            action={notFound ? <ButtonLink to="/">Back home</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
          >
            {notFound ? 'Check the link you were given.' : errorMessage(query.error)}
          </EmptyState>
        </Card>
      </ConsoleFrame>
    );
  }

  const title = (
    <>
      <span className="sk-top__eyebrow">Score keeper</span>
      <span className="sk-top__matchup">
        {game.home.name} vs {game.away.name}
      </span>
    </>
  );
  if (!game.viewer?.canScore || forbidden) {
    return (
      <ConsoleFrame gameId={game.id} title={title}>
        <Card data-testid="not-a-scorer">
          <EmptyState
            icon={<WhistleIcon size={28} />}
            title="You can't keep score for this game"
            action={<ButtonLink to={`/games/${game.id}`} variant="primary">Follow it live</ButtonLink>}
          >
            Only the game's score keepers can score it, with the league's facility owner and managers and the owners and managers of
            either team. Ask one of them to add you as a score keeper.
          </EmptyState>
        </Card>
      </ConsoleFrame>
    );
  }
  return (
    <ConsoleFrame gameId={game.id} title={title}>
      <Console game={game} />
    </ConsoleFrame>
  );
}

/** What the status bar says about an action, before and after. */
function actionLabel(action: GameActionBody, game: GameDocument): string {
  const team = (rosterId: string) => (rosterId === game.homeRosterId ? game.home : game.away);
  const player = (rosterId: string, userId: string) => {
    const p = team(rosterId).players.find((x) => x.userId === userId);
    return p ? playerTag(p) : 'player';
  };
  switch (action.type) {
    case 'START':
      return 'Puck drop';
    case 'GOAL':
      return action.scorerId ? `Goal ${team(action.rosterId).name}: ${player(action.rosterId, action.scorerId)}` : `Goal ${team(action.rosterId).name}`;
    case 'PENALTY':
      return `${PENALTY_LABELS[action.penalty]} ${player(action.rosterId, action.playerId)}`;
    case 'SHOT':
      return `Shot ${team(action.rosterId).name}`;
    case 'GOALIE':
      return action.playerId ? `In net for ${team(action.rosterId).name}: ${player(action.rosterId, action.playerId)}` : `${team(action.rosterId).name} goalie pulled`;
    case 'CLOCK_START':
      return 'Clock started';
    case 'CLOCK_STOP':
      return 'Clock stopped';
    case 'CLOCK_SET':
      return `Clock set to ${formatMinutes(action.remainingMs)}`;
    case 'INTERMISSION':
      return `Intermission, ${action.minutes} min`;
    case 'END_PERIOD':
      return `End of ${periodShort(game.period)}`;
    case 'FINAL':
      return 'Final';
    case 'UNDO':
      return 'Undo';
  }
}

function Board({ game }: { game: Game }) {
  return (
    <section className={`sk-board sk-board--${game.status.toLowerCase()}`} aria-label="Score">
      <div className="sk-board__team sk-board__team--home">
        <span className="sk-board__name">{game.home.name}</span>
        <span className="sk-board__score" data-testid="console-home-score">
          {game.homeScore}
        </span>
      </div>
      <div className="sk-board__mid">
        <span className="sk-board__state" data-testid="console-state">
          {gameStateLine(game)}
        </span>
      </div>
      <div className="sk-board__team sk-board__team--away">
        <span className="sk-board__name">{game.away.name}</span>
        <span className="sk-board__score" data-testid="console-away-score">
          {game.awayScore}
        </span>
      </div>
    </section>
  );
}

function StatusBar({ flight, onDismiss }: { flight: ScoringFlight; onDismiss: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const doneAt = flight.done?.at ?? null;
  useEffect(() => {
    if (doneAt === null) return undefined;
    const t = setTimeout(() => setNow(Date.now()), DONE_VISIBLE_MS + 50);
    return () => clearTimeout(t);
  }, [doneAt]);

  if (flight.phase === 'sending') {
    return (
      <p className="sk-status" role="status" data-testid="console-status" data-state="sending">
        <Spinner size="sm" /> Sending…
      </p>
    );
  }
  if (flight.queued) {
    return (
      <div className="sk-status sk-status--unknown" role="status" data-testid="console-status" data-state="queued">
        <p>
          <strong>{flight.queued.label}: waiting for the connection.</strong> Rinkside could not be reached; it goes as soon as the connection is back,
          once.
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss} data-testid="drop-queued">
          Don&apos;t send
        </Button>
      </div>
    );
  }
  if (flight.unknown) {
    return (
      <div className="sk-status sk-status--unknown" role="status" data-testid="console-status" data-state="unknown">
        <p>
          <strong>{flight.unknown.label}: {flight.unknown.wasSent ? 'no answer yet.' : 'not sent.'}</strong>{' '}
          {flight.unknown.wasSent
            ? 'It may still have gone through. The score above follows the server; check the scoresheet before entering it again.'
            : 'There was no connection, so nothing changed. Try again when the connection is back.'}
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          OK
        </Button>
      </div>
    );
  }
  if (flight.error) {
    return (
      <div className="sk-status sk-status--error" role="alert" data-testid="console-status" data-state="error">
        <p>
          <strong>Not recorded.</strong> {flight.error}
        </p>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          OK
        </Button>
      </div>
    );
  }
  if (flight.done && now - flight.done.at < DONE_VISIBLE_MS) {
    return (
      <p className="sk-status sk-status--done" role="status" data-testid="console-status" data-state="done">
        <CheckIcon size={18} /> {flight.done.label}
      </p>
    );
  }
  return null;
}

function Console({ game }: { game: Game }) {
  const { flight, act, setLineup, dismiss } = useScoring(game.id, { retries: true });
  const [picker, setPicker] = useState<PickerState>({ step: 'closed' });
  const [confirmFinal, setConfirmFinal] = useState(false);
  const [confirmStart, setConfirmStart] = useState(false);
  // An action waiting for the connection holds the buttons: a second one
  // must not take its place.
  const busy = flight.phase === 'sending' || flight.queued !== null;
  // The clock and shots never wait for another action's reply (a stop must
  // land when the thumb does); only an action held for the connection holds them.
  const held = flight.queued !== null;
  const status = game.status;
  const live = status === 'LIVE';

  // A push may end the game under an open picker (another score keeper's FINAL).
  const [wasLive, setWasLive] = useState(live);
  if (wasLive !== live) {
    setWasLive(live);
    if (!live) {
      setPicker({ step: 'closed' });
      setConfirmFinal(false);
    }
  }

  const send = (action: GameActionBody) => void act(action, actionLabel(action, game));
  const dispatch = (event: PickerEvent) => {
    // GOAL and PENALTY keep the clock as it read at the tap.
    if (event.type === 'goal' || event.type === 'penalty') event = { ...event, clockMs: clockAtTap(game, serverNow()) };
    const result = pickerStep(picker, event, { home: game.homeRosterId, away: game.awayRosterId });
    setPicker(result.state);
    if (result.action) send(result.action);
  };

  const described = describeLog(game);
  const last = described[described.length - 1];
  const undoWhat = last ? [last.title, last.primary ?? last.team].filter(Boolean).join(' · ') : null;
  const step = periodStep(game);

  return (
    <div className="sk-console">
      <Board game={game} />

      <div className="sk-actions" aria-label="Scoring">
        {status === 'SCHEDULED' && (
          <>
            {confirmStart ? (
              <div className="sk-confirm" role="group" aria-labelledby="start-q" data-testid="start-confirm">
                <p id="start-q" className="sk-confirm__q">
                  This game is scheduled for <strong>{new Date(game.scheduledAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</strong>. Start it now?
                </p>
                <div className="sk-confirm__actions">
                  <Button variant="secondary" size="lg" onClick={() => setConfirmStart(false)} data-testid="start-cancel">
                    Not yet
                  </Button>
                  <Button
                    size="lg"
                    disabled={busy}
                    onClick={() => {
                      setConfirmStart(false);
                      send({ type: 'START' });
                    }}
                    data-testid="start-confirm-yes"
                  >
                    Start now
                  </Button>
                </div>
              </div>
            ) : (
              <button
                type="button"
                className="sk-btn sk-btn--start"
                disabled={busy}
                onClick={() => (Math.abs(Date.parse(game.scheduledAt) - Date.now()) > START_CONFIRM_MS ? setConfirmStart(true) : send({ type: 'START' }))}
                data-testid="start-game"
              >
                {busy && flight.action === 'START' ? <Spinner /> : 'Start game'}
                <small>Puck drop · period 1</small>
              </button>
            )}
            <p className="sk-hint">Check who dressed below before you start: only dressed players can be credited.</p>
          </>
        )}

        {live && (
          <>
            <ClockControl game={game} send={send} disabled={held} />
            <StrengthBar game={game} />
            <div className="sk-grid">
              <button type="button" className="sk-btn sk-btn--goal sk-btn--home" disabled={busy} onClick={() => dispatch({ type: 'goal', side: 'home' })} data-testid="goal-home">
                Goal
                <small>{game.home.name}</small>
              </button>
              <button type="button" className="sk-btn sk-btn--goal sk-btn--away" disabled={busy} onClick={() => dispatch({ type: 'goal', side: 'away' })} data-testid="goal-away">
                Goal
                <small>{game.away.name}</small>
              </button>
              <button type="button" className="sk-btn sk-btn--pen" disabled={busy} onClick={() => dispatch({ type: 'penalty', side: 'home' })} data-testid="penalty-home">
                Penalty
                <small>{game.home.name}</small>
              </button>
              <button type="button" className="sk-btn sk-btn--pen" disabled={busy} onClick={() => dispatch({ type: 'penalty', side: 'away' })} data-testid="penalty-away">
                Penalty
                <small>{game.away.name}</small>
              </button>
            </div>
            <ShotsControl game={game} send={send} disabled={held} />
            {confirmFinal ? (
              <div className="sk-confirm" role="group" aria-labelledby="final-q" data-testid="final-confirm">
                <p id="final-q" className="sk-confirm__q">
                  End the game at <strong>{game.home.name} {game.homeScore} – {game.awayScore} {game.away.name}</strong>?
                </p>
                <p className="sk-confirm__note">The result goes to the standings. Undo reopens the game if you need to.</p>
                <div className="sk-confirm__actions">
                  <Button variant="secondary" size="lg" onClick={() => setConfirmFinal(false)} data-testid="final-cancel">
                    Keep playing
                  </Button>
                  <Button
                    variant="danger"
                    size="lg"
                    disabled={busy}
                    onClick={() => {
                      setConfirmFinal(false);
                      send({ type: 'FINAL' });
                    }}
                    data-testid="final-confirm-yes"
                  >
                    Final
                  </Button>
                </div>
              </div>
            ) : (
              <div className="sk-grid sk-grid--secondary">
                {/* Not tied after the 3rd (or after an OT goal): no END OT, FINAL is what is left. */}
                {step.finalNext ? (
                  <p className="sk-btn sk-btn--period sk-btn--note" data-testid="period-over">
                    {step.hint}
                    <small>Tap Final to end the game</small>
                  </p>
                ) : (
                  <button type="button" className="sk-btn sk-btn--period" disabled={busy || !step.canEnd} onClick={() => send({ type: 'END_PERIOD' })} data-testid="end-period">
                    {busy && flight.action === 'END_PERIOD' ? <Spinner /> : step.label}
                    <small>{step.hint}</small>
                  </button>
                )}
                <button type="button" className={`sk-btn sk-btn--final${step.finalNext ? ' sk-btn--next' : ''}`} disabled={busy} onClick={() => setConfirmFinal(true)} data-testid="final">
                  Final
                  <small>{step.finalNext ? 'The game is over' : 'End the game'}</small>
                </button>
              </div>
            )}
          </>
        )}

        {live && <GoalieControl game={game} send={send} disabled={busy} />}

        {status === 'FINAL' && (
          <div className="sk-final" data-testid="console-final">
            <p className="sk-final__title">Final</p>
            <p className="sk-final__note">The result is in the standings. Tap Undo to reopen the game if something is wrong.</p>
          </div>
        )}

        {(status === 'POSTPONED' || status === 'CANCELLED') && (
          <Alert tone="warning" title={status === 'POSTPONED' ? 'This game is postponed' : 'This game is cancelled'}>
            {status === 'POSTPONED' ? 'It can be scored once the league puts it back on the schedule.' : 'It will not be played.'}
          </Alert>
        )}
      </div>

      <section className="sk-sheet-card">
        <Card>
          <CardHeader title="Scoresheet" subtitle="Newest first. Undo takes back the top entry." />
          <PlayByPlay game={game} limit={12} emptyText={status === 'SCHEDULED' ? 'Start the game to begin the scoresheet.' : 'Nothing recorded yet.'} />
        </Card>
      </section>

      {status !== 'FINAL' && status !== 'CANCELLED' && (
        <Card className="sk-lineups">
          <CardHeader title="Who dressed" subtitle="Only dressed players can be picked for goals and penalties; each gets a game played at FINAL." />
          <LineupEditor game={game} editable={game.viewer?.lineupRosterIds ?? []} busy={busy} onSave={setLineup} />
        </Card>
      )}

      {game.viewer?.canManage && <ScorekeepersCard gameId={game.id} />}

      <div className="sk-bar">
        <StatusBar flight={flight} onDismiss={dismiss} />
        <button
          type="button"
          className="sk-undo"
          disabled={busy || !last}
          onClick={() => send({ type: 'UNDO' })}
          data-testid="undo"
          aria-label={undoWhat ? `Undo ${undoWhat}` : 'Undo'}
        >
          {busy && flight.action === 'UNDO' ? <Spinner /> : <UndoIcon size={24} />}
          <span className="sk-undo__text">
            <span className="sk-undo__label">Undo</span>
            <span className="sk-undo__what">{undoWhat ?? 'Nothing to undo'}</span>
          </span>
        </button>
      </div>

      {picker.step !== 'closed' && <PickerSheet game={game} state={picker} dispatch={dispatch} />}
    </div>
  );
}
