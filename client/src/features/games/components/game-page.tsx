// /games/:id — a game, live: the score, period and status, the
// play-by-play, who dressed and what they did, and the season's live
// standings. Score keepers get a way into the console; staff can
// reschedule, postpone or cancel a game that has not started; everyone can
// open the arena display.

import { useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { Game } from '../../../lib/api-types';
import { useLiveGame, useLiveSeason, useSeasonQuery } from '../../../lib/games';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, EditIcon, RinkIcon, StopwatchIcon } from '../../../components/ui/icons';
import { PageSpinner } from '../../../components/ui/spinner';
import { BoxScore } from './box-score';
import { canEditGame, GameEditForm } from './game-edit-form';
import { ScreenIcon } from './game-icons';
import { PlayByPlay } from './play-by-play';
import { Scoreboard } from './scoreboard';
import { StandingsTable } from './standings-table';
import '../games.css';

export function GamePage() {
  const { id = '' } = useParams();
  const { game, query, isLive } = useLiveGame(id);
  if (query.isPending) return <PageSpinner label="Loading game" />;
  if (query.isError || !game) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<RinkIcon size={28} />}
          title={notFound ? 'This game is not on Rinkside' : 'Could not load this game'}
          action={notFound ? <ButtonLink to="/">Back home</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'The link may be wrong, or the season it belonged to was removed.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <GameView game={game} isLive={isLive} />;
}

function GameView({ game, isLive }: { game: Game; isLive: boolean }) {
  const season = useSeasonQuery(game.seasonId);
  const live = useLiveSeason(game.seasonId);
  const entry = live.schedule?.find((e) => e.id === game.id);
  const [editing, setEditing] = useState(false);
  const canScore = Boolean(game.viewer?.canScore);
  const canManage = Boolean(game.viewer?.canManage);
  const scoring = canScore && (game.status === 'SCHEDULED' || game.status === 'LIVE' || game.status === 'FINAL');

  return (
    <div className="game-page" data-testid="game-page">
      <Scoreboard game={game} isLive={isLive} season={season.data} homeTeamId={entry?.homeTeamId} awayTeamId={entry?.awayTeamId} />

      <div className="game-links">
        {scoring && (
          <ButtonLink to={`/games/${game.id}/score`} variant="primary" icon={<StopwatchIcon size={18} />} data-testid="open-console">
            {game.status === 'SCHEDULED' ? 'Score this game' : game.status === 'FINAL' ? 'Scorekeeper console' : 'Keep score'}
          </ButtonLink>
        )}
        <ButtonLink to={`/display/game/${game.id}`} target="_blank" rel="noopener" icon={<ScreenIcon size={18} />} data-testid="open-display">
          Arena display
        </ButtonLink>
        <ButtonLink to={`/seasons/${game.seasonId}/games`} variant="ghost" icon={<CalendarIcon size={18} />}>
          Season schedule
        </ButtonLink>
      </div>

      {game.status === 'CANCELLED' && (
        <Alert tone="warning" title="This game is cancelled">
          It will not be played and does not count in the standings.
        </Alert>
      )}
      {game.status === 'POSTPONED' && (
        <Alert tone="info" title="This game is postponed">
          A new face-off time will show here once the league sets one.
        </Alert>
      )}

      {canManage && canEditGame(game.status) && (
        <Card data-testid="manage-game">
          <CardHeader
            title="Manage game"
            subtitle="Change the face-off time, postpone or cancel. Once the puck drops, the score keeper runs the game."
            action={
              !editing && (
                <Button size="sm" variant="secondary" icon={<EditIcon size={16} />} onClick={() => setEditing(true)} data-testid="edit-this-game">
                  Edit
                </Button>
              )
            }
          />
          {editing && <GameEditForm gameId={game.id} scheduledAt={game.scheduledAt} status={game.status} seasonId={game.seasonId} settings={game.settings} onDone={() => setEditing(false)} />}
        </Card>
      )}

      <div className="game-layout">
        <div className="game-layout__main">
          <Card>
            <CardHeader title={<span className="game-with-live">{isLive && game.status === 'LIVE' && <span className="game-live-dot" aria-hidden="true" />}Play by play</span>} />
            <PlayByPlay game={game} emptyText={game.status === 'SCHEDULED' ? 'The puck has not dropped yet. Goals and penalties appear here as they happen.' : 'Nothing on the scoresheet.'} />
          </Card>
          <Card>
            <CardHeader title="Box score" subtitle="Shots by period; who dressed, with goals, assists and penalty minutes; the goalies." />
            <BoxScore game={game} />
          </Card>
        </div>
        <aside className="game-layout__side">
          <Card>
            <CardHeader title="Standings" subtitle={season.data?.name} action={<ButtonLink to={`/seasons/${game.seasonId}/games`} size="sm" variant="ghost">Full season</ButtonLink>} />
            {live.standings ? (
              <StandingsTable standings={live.standings} highlight={[game.homeRosterId, game.awayRosterId]} compact />
            ) : live.error ? (
              <p className="empty-line">{errorMessage(live.error)}</p>
            ) : (
              <PageSpinner label="Loading standings" />
            )}
          </Card>
        </aside>
      </div>
    </div>
  );
}
