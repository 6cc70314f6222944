import { Link } from 'react-router';
import type { RinkEvent } from '../../../lib/api-types';
import { useSeasonQuery } from '../../../lib/games';
import { Card, CardHeader } from '../../../components/ui/card';

/** Home and away: linked teams first, else the external names. */
function sides(event: RinkEvent) {
  const home = event.teams.find((t) => t.role === 'HOME');
  const away = event.teams.find((t) => t.role === 'AWAY');
  return {
    home: home ? { name: home.teamName, to: `/teams/${home.teamId}` } : event.externalHomeTeamName ? { name: event.externalHomeTeamName, to: null } : null,
    away: away ? { name: away.teamName, to: `/teams/${away.teamId}` } : event.externalAwayTeamName ? { name: event.externalAwayTeamName, to: null } : null,
  };
}

function Side({ side, label }: { side: { name: string; to: string | null } | null; label: string }) {
  return (
    <div className="matchup__side">
      <span className="matchup__label">{label}</span>
      {side ? side.to ? <Link to={side.to} className="matchup__name">{side.name}</Link> : <span className="matchup__name">{side.name}</span> : <span className="matchup__name muted">TBD</span>}
    </div>
  );
}

export function EventDetails({ event }: { event: RinkEvent }) {
  const season = useSeasonQuery(event.seasonId);
  const { home, away } = sides(event);
  const scored = event.homeScore !== null || event.awayScore !== null;
  const showMatchup = Boolean(home || away || scored);
  const hasAnything = Boolean(event.description || showMatchup || event.seasonId || event.externalRink);
  if (!hasAnything) return null;
  return (
    <Card className="event-block event-block--details" data-testid="event-details">
      <CardHeader title="About" />
      {showMatchup && (
        <div className="matchup" data-testid="matchup">
          <Side side={home} label="Home" />
          <div className="matchup__score" aria-label={scored ? `Score ${event.homeScore ?? 0} to ${event.awayScore ?? 0}` : 'No score yet'}>
            {scored ? (
              <>
                <span>{event.homeScore ?? 0}</span>
                <span className="matchup__dash">–</span>
                <span>{event.awayScore ?? 0}</span>
              </>
            ) : (
              <span className="matchup__vs">vs</span>
            )}
          </div>
          <Side side={away} label="Away" />
        </div>
      )}
      {event.description && <p className="prose">{event.description}</p>}
      {(event.seasonId || (event.externalRink && event.location)) && (
        <dl className="facts">
          {event.seasonId && (
            <div>
              <dt>Season</dt>
              <dd>{season.data ? `${season.data.name} · ${season.data.facilityName}` : '…'}</dd>
            </div>
          )}
          {event.externalRink && event.location && (
            <div>
              <dt>Rink</dt>
              <dd>{event.externalRink}</dd>
            </div>
          )}
        </dl>
      )}
    </Card>
  );
}
