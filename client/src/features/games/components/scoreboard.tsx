// The top of the game page: both sides, the score (once the puck dropped),
// the period or status, the face-off time, live as the topic pushes.

import { Link } from 'react-router';
import type { Game, SeasonDetail } from '../../../lib/api-types';
import { rinkClock, rinkDayLabel } from '../../../lib/time-zone';
import { gameStateLine, hasScore } from '../../../lib/games';
import { Card } from '../../../components/ui/card';

function TeamName({ name, teamId }: { name: string; teamId: string | undefined }) {
  return teamId ? (
    <Link to={`/teams/${teamId}`} className="scoreboard__name">
      {name}
    </Link>
  ) : (
    <span className="scoreboard__name">{name}</span>
  );
}

export function Scoreboard({
  game,
  isLive,
  season,
  homeTeamId,
  awayTeamId,
}: {
  game: Game;
  isLive: boolean;
  season: SeasonDetail | undefined;
  homeTeamId: string | undefined;
  awayTeamId: string | undefined;
}) {
  const scored = hasScore(game.status);
  const status = game.status.toLowerCase();
  const lead = game.homeScore === game.awayScore ? null : game.homeScore > game.awayScore ? 'home' : 'away';
  return (
    <Card className={`scoreboard scoreboard--${status}`} data-testid="scoreboard">
      <div className="scoreboard__meta">
        {season ? (
          <Link to={`/seasons/${season.id}/games`} className="scoreboard__season">
            {season.name} · {season.facilityName}
          </Link>
        ) : (
          <span className="scoreboard__season">&nbsp;</span>
        )}
        <span className={`scoreboard__chip scoreboard__chip--${status}`} data-testid="game-status" data-status={game.status}>
          {game.status === 'LIVE' && <span className="game-live-dot" aria-hidden="true" />}
          {game.status === 'LIVE' ? 'Live' : gameStateLine({ status: game.status, period: null })}
        </span>
      </div>
      <div className="scoreboard__grid">
        <div className={`scoreboard__team scoreboard__team--home${scored && lead === 'home' ? ' scoreboard__team--lead' : ''}`}>
          <span className="scoreboard__side">Home</span>
          <TeamName name={game.home.name} teamId={homeTeamId} />
        </div>
        <div className="scoreboard__score" aria-live="polite">
          {scored ? (
            <>
              <span className="scoreboard__digits" data-testid="home-score" aria-label={`${game.home.name} ${game.homeScore}`}>
                {game.homeScore}
              </span>
              <span className="scoreboard__dash" aria-hidden="true">
                –
              </span>
              <span className="scoreboard__digits" data-testid="away-score" aria-label={`${game.away.name} ${game.awayScore}`}>
                {game.awayScore}
              </span>
            </>
          ) : (
            <span className="scoreboard__vs">vs</span>
          )}
        </div>
        <div className={`scoreboard__team scoreboard__team--away${scored && lead === 'away' ? ' scoreboard__team--lead' : ''}`}>
          <span className="scoreboard__side">Away</span>
          <TeamName name={game.away.name} teamId={awayTeamId} />
        </div>
      </div>
      <p className="scoreboard__state" data-testid="game-state" data-live={isLive}>
        {scored ? gameStateLine(game) : `Face-off ${rinkDayLabel(game.scheduledAt, null)} · ${rinkClock(game.scheduledAt, null)}`}
      </p>
    </Card>
  );
}
