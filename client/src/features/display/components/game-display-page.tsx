// /display/game/:id — one game on the arena screen, signed out: both
// teams, huge score digits, the game clock and period, shots, penalties
// counting down and the power play (LiveBoard), the last goal with its
// scorer and assists. A goal lights up the scoring side for a few seconds.
// Live from `game:ID`; see DisplayFrame for what happens when the server
// is away.

import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { Game, GameDocument } from '../../../lib/api-types';
import { describeLog, entryClock, lastGoal, periodShort, useLiveGame, useSeasonQuery, type GameSide } from '../../../lib/games';
import { dayKey, rinkClock, rinkDayLabel } from '../../../lib/time-zone';
import { Spinner } from '../../../components/ui/spinner';
import { ConnectionMark, DisplayFrame, useFreshness } from './display-frame';
import { LiveBoard } from './live-board';

/** How often a display that could not load asks again. */
const RETRY_MS = 5_000;
/** How long the scoring side glows after a goal. */
const GOAL_FLASH_MS = 6000;

/** The big middle of the board: "2nd / PERIOD", "1st / INTERMISSION", "FINAL / OVERTIME", "7:00 PM / FACE-OFF". */
function middle(game: Game): { big: string; small: string } {
  switch (game.status) {
    case 'LIVE': {
      const last = game.log[game.log.length - 1];
      // A period that ended without the game moving on (3rd or OT with a lead) is the end, not an intermission.
      if (last?.type === 'END_PERIOD' && last.period) return { big: periodShort(last.period), small: last.period === game.period ? 'End of period' : 'Intermission' };
      if (game.period === 'OT') return { big: 'OT', small: 'Overtime' };
      if (game.period === 'SO') return { big: 'SO', small: 'Shootout' };
      return { big: periodShort(game.period), small: 'Period' };
    }
    case 'FINAL':
      return { big: 'Final', small: game.period === 'OT' ? 'Overtime' : game.period === 'SO' ? 'Shootout' : '' };
    case 'SCHEDULED':
      return { big: rinkClock(game.scheduledAt, null), small: `Face-off · ${rinkDayLabel(game.scheduledAt, null)}` };
    case 'POSTPONED':
      return { big: 'Postponed', small: '' };
    case 'CANCELLED':
      return { big: 'Cancelled', small: '' };
  }
}

/**
 * The pill at the top right says the game's state, never the connection's:
 * LIVE only while the puck is in play, FINAL after, the start time before
 * puck drop ("Starts 7:00 PM", with the day when it is not today).
 */
export function gamePill(game: Pick<Game, 'status' | 'scheduledAt'>, now: Date = new Date()): string {
  switch (game.status) {
    case 'LIVE':
      return 'Live';
    case 'FINAL':
      return 'Final';
    case 'SCHEDULED': {
      const day = dayKey(game.scheduledAt, null) === dayKey(now, null) ? '' : `${rinkDayLabel(game.scheduledAt, null, now)} `;
      return `Starts ${day}${rinkClock(game.scheduledAt, null)}`;
    }
    case 'POSTPONED':
      return 'Postponed';
    case 'CANCELLED':
      return 'Cancelled';
  }
}

function GamePill({ game }: { game: Game }) {
  return (
    <span className={`dpill dpill--${game.status.toLowerCase()}`} data-testid="display-game-state" data-status={game.status}>
      {game.status === 'LIVE' && <span className="dpill__dot" aria-hidden="true" />}
      {gamePill(game)}
    </span>
  );
}

/** Which side scored since the last state this hook saw (never on the first paint). */
function useGoalFlash(game: GameDocument | null): GameSide | null {
  const prev = useRef<{ id: string; home: number; away: number } | null>(null);
  const [flash, setFlash] = useState<{ side: GameSide; at: number } | null>(null);
  const home = game?.homeScore ?? null;
  const away = game?.awayScore ?? null;
  const id = game?.id ?? null;
  useEffect(() => {
    if (id === null || home === null || away === null) return;
    const before = prev.current;
    prev.current = { id, home, away };
    if (!before || before.id !== id) return;
    if (home > before.home) setFlash({ side: 'home', at: Date.now() });
    else if (away > before.away) setFlash({ side: 'away', at: Date.now() });
  }, [id, home, away]);
  useEffect(() => {
    if (!flash) return undefined;
    const t = setTimeout(() => setFlash(null), GOAL_FLASH_MS);
    return () => clearTimeout(t);
  }, [flash]);
  return flash?.side ?? null;
}

function SeasonLine({ seasonId }: { seasonId: string }) {
  const season = useSeasonQuery(seasonId);
  return <>{season.data ? `${season.data.name} · ${season.data.facilityName}` : '\u00a0'}</>;
}

function Ticker({ game }: { game: Game }) {
  const goal = lastGoal(game);
  const penalties = describeLog(game)
    .filter((d) => d.entry.type === 'PENALTY')
    .slice(-2)
    .reverse();
  if (!goal && penalties.length === 0) return null;
  return (
    <div className="dticker" data-testid="display-ticker">
      {goal && (
        <p className={`dticker__goal dticker__goal--${goal.side ?? 'none'}`} data-testid="display-last-goal">
          <span className="dticker__tag">Goal</span>
          <span className="dticker__team">{goal.team}</span>
          <strong className="dticker__who">{goal.primary}</strong>
          {goal.flags.length > 0 && <span className="dticker__flags">{goal.flags.join(' · ')}</span>}
          {goal.secondary && <span className="dticker__assists">{goal.secondary}</span>}
          {goal.entry.period && (
            <span className="dticker__when">
              {entryClock(goal.entry) ? `${entryClock(goal.entry)} · ` : ''}
              {periodShort(goal.entry.period)}
            </span>
          )}
        </p>
      )}
      {penalties.map((p) => (
        <p key={p.entry.seq} className="dticker__pen">
          <span className="dticker__tag dticker__tag--pen">Penalty</span>
          <span className="dticker__team">{p.team}</span>
          <strong className="dticker__who">{p.primary}</strong>
          {p.secondary && <span className="dticker__assists">{p.secondary}</span>}
        </p>
      ))}
    </div>
  );
}

export function GameDisplayPage() {
  const { id = '' } = useParams();
  const { game, query, isLive } = useLiveGame(id);
  const freshness = useFreshness(isLive);
  const flash = useGoalFlash(game);

  useEffect(() => {
    if (!game) return undefined;
    const before = document.title;
    const started = game.status === 'LIVE' || game.status === 'FINAL';
    document.title = started ? `${game.home.name} ${game.homeScore}–${game.awayScore} ${game.away.name} · Rinkside` : `${game.home.name} vs ${game.away.name} · Rinkside`;
    return () => {
      document.title = before;
    };
  }, [game]);

  // A server that was down at start: keep asking until the first read lands.
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const failed = query.isError && !game;
  const retry = useEffectEvent(() => void query.refetch());
  useEffect(() => {
    if (!failed || notFound) return undefined;
    const t = setInterval(() => retry(), RETRY_MS);
    return () => clearInterval(t);
  }, [failed, notFound]);

  const connection = <ConnectionMark {...freshness} hasData={Boolean(game)} quiet />;

  if (!game) {
    return (
      <DisplayFrame title="Rinkside" mark={connection} stale={false} testId="game-display">
        <div className="display__message">
          {query.isError ? (
            <>
              <p className="display__message-title">{notFound ? 'No such game' : 'Waiting for the server'}</p>
              <p className="display__message-text">{notFound ? 'Check the address of this display.' : `${errorMessage(query.error)} Trying again by itself.`}</p>
            </>
          ) : (
            <Spinner size="lg" label="Loading game" />
          )}
        </div>
      </DisplayFrame>
    );
  }

  const mid = middle(game);
  return (
    <DisplayFrame
      title={`${game.home.name} vs ${game.away.name}`}
      subtitle={<SeasonLine seasonId={game.seasonId} />}
      mark={
        <>
          <GamePill game={game} />
          {connection}
        </>
      }
      stale={!freshness.fresh}
      testId="game-display"
      footer={<Ticker game={game} />}
    >
      <LiveBoard game={game} flash={flash} middle={mid} />
    </DisplayFrame>
  );
}
