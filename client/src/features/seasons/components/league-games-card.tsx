// The league's schedule as the source has it: every game by day at the
// rink (its zone, whatever the browser's), home vs away, the score once
// played, the sheet. A game gone from the source stays, struck through; a
// game with a matched team links to its event (where its players RSVP).

import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { Alert } from '../../../components/ui/alert';
import { Card, CardHeader } from '../../../components/ui/card';
import { ChevronRightIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { formatIn, isoToZonedDay, rinkClock } from '../../../lib/time-zone';
import { useExternalGames } from '../api/sync';
import type { ExternalGame } from '../model/sync';

/** Games shown before "Show all". */
const FIRST_GAMES = 12;
/** A game counts as upcoming until this long after its start (a league slot is 70–90 min). */
const GAME_LENGTH_MS = 90 * 60_000;

type Filter = 'upcoming' | 'results';

export function splitGames(games: readonly ExternalGame[], now: Date): Record<Filter, ExternalGame[]> {
  const upcoming: ExternalGame[] = [];
  const results: ExternalGame[] = [];
  for (const g of games) {
    if (Date.parse(g.dateTime) + GAME_LENGTH_MS > now.getTime()) upcoming.push(g);
    else results.push(g);
  }
  // Upcoming soonest first (the server's order); results latest first.
  return { upcoming, results: results.reverse() };
}

/** "Sat, Nov 28" at the rink. */
function dayLabel(iso: string, tz: string): string {
  return formatIn(iso, tz, { weekday: 'short', month: 'short', day: 'numeric' });
}

function GameRow({ game, tz }: { game: ExternalGame; tz: string }) {
  const played = game.homeGoals !== null && game.awayGoals !== null;
  const body = (
    <>
      <span className="league-game__time">{rinkClock(game.dateTime, tz)}</span>
      <span className="league-game__teams">
        <span className="league-game__matchup">
          {game.homeName} <span className="muted">vs</span> {game.awayName}
        </span>
        <span className="league-game__meta">
          {[game.rink, game.gameType && game.gameType !== 'Regular Season' ? game.gameType : null].filter(Boolean).join(' · ')}
          {game.removed && <span className="league-game__removed-note"> · removed from the schedule</span>}
        </span>
      </span>
      {played && (
        <span className="league-game__score" data-testid="league-game-score">
          {game.homeGoals}–{game.awayGoals}
        </span>
      )}
      {game.eventId && <ChevronRightIcon size={16} />}
    </>
  );
  // A removed game keeps its row (and its cancelled event's link), struck through.
  const content = game.removed ? <s className="league-game__strike">{body}</s> : body;
  const cls = `league-game${game.removed ? ' league-game--removed' : ''}`;
  return (
    <li data-testid={`league-game-${game.externalId}`} data-removed={game.removed || undefined}>
      {game.eventId ? (
        <Link to={`/events/${game.eventId}`} className={`${cls} league-game--link`} data-testid="league-game-event">
          {content}
        </Link>
      ) : (
        <div className={cls}>{content}</div>
      )}
    </li>
  );
}

export function LeagueGamesCard({ seasonId, timezone }: { seasonId: string; timezone: string }) {
  const games = useExternalGames(seasonId);
  const [filter, setFilter] = useState<Filter | null>(null);
  const [all, setAll] = useState(false);
  const split = splitGames(games.data ?? [], new Date());
  const shownFilter: Filter = filter ?? (split.upcoming.length > 0 || split.results.length === 0 ? 'upcoming' : 'results');
  const list = split[shownFilter];
  const shown = all ? list : list.slice(0, FIRST_GAMES);

  // Group by the rink's day, in list order.
  const days: Array<{ day: string; label: string; games: ExternalGame[] }> = [];
  for (const g of shown) {
    const day = isoToZonedDay(g.dateTime, timezone);
    const last = days[days.length - 1];
    if (last && last.day === day) last.games.push(g);
    else days.push({ day, label: dayLabel(g.dateTime, timezone), games: [g] });
  }

  const total = games.data?.length ?? 0;
  return (
    <Card padded={false} data-testid="league-games">
      <div className="card__pad card__pad--header">
        <CardHeader title="League schedule" subtitle={total ? `${total} games from the league’s schedule, at the rink’s time.` : 'Games from the league’s schedule.'} />
        {total > 0 && (
          <div className="tabs league-games__tabs" role="tablist" aria-label="Which games">
            {(['upcoming', 'results'] as const).map((f) => (
              <button
                key={f}
                type="button"
                role="tab"
                aria-selected={shownFilter === f}
                className={`tabs__tab${shownFilter === f ? ' active' : ''}`}
                onClick={() => {
                  setFilter(f);
                  setAll(false);
                }}
                data-testid={`league-filter-${f}`}
              >
                {f === 'upcoming' ? `Upcoming (${split.upcoming.length})` : `Played (${split.results.length})`}
              </button>
            ))}
          </div>
        )}
      </div>
      {games.isPending ? (
        <ListSkeleton rows={3} />
      ) : games.isError ? (
        <div className="card__pad">
          <Alert action={<button type="button" className="link-btn" onClick={() => void games.refetch()}>Retry</button>}>{errorMessage(games.error)}</Alert>
        </div>
      ) : total === 0 ? (
        <p className="muted card__pad">The league’s schedule has no games yet.</p>
      ) : list.length === 0 ? (
        <p className="muted card__pad">{shownFilter === 'upcoming' ? 'No games coming up.' : 'No games played yet.'}</p>
      ) : (
        <>
          {days.map((d) => (
            <section key={d.day} className="league-games__day" aria-label={d.label}>
              <h3 className="league-games__day-label">{d.label}</h3>
              <ul className="league-games__list">
                {d.games.map((g) => (
                  <GameRow key={g.id} game={g} tz={timezone} />
                ))}
              </ul>
            </section>
          ))}
          {list.length > shown.length && (
            <div className="card__pad league-games__more">
              <button type="button" className="link-btn" onClick={() => setAll(true)} data-testid="league-games-all">
                Show all {list.length}
              </button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}
