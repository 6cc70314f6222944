// /display/season/:id — a season on the arena screen, signed out. It
// cycles through the standings (a page of rows at a time when the league
// is big) and today's games with their live scores; on a day without
// games it shows what is coming up instead. Live from `season:ID`.

import { useEffect, useEffectEvent, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { GameScheduleEntry, Standing } from '../../../lib/api-types';
import { dayKey, rinkClock, rinkDayLabel } from '../../../lib/time-zone';
import { goalDiff, hasScore, periodShort, useLiveSeason, useSeasonQuery } from '../../../lib/games';
import { Spinner } from '../../../components/ui/spinner';
import { ConnectionMark, DisplayFrame, useFreshness, useNow } from './display-frame';

/** How long each panel stays up. */
export const PANEL_MS = 12_000;
/** Standings rows per panel (readable from the far boards at 1080p). */
export const STANDINGS_PER_PANEL = 8;
/** How often a display that could not load asks again. */
const RETRY_MS = 5_000;
/** Games per panel. */
export const GAMES_PER_PANEL = 6;

type Panel =
  | { kind: 'standings'; rows: Standing[]; offset: number; page: number; pages: number }
  | { kind: 'games'; title: string; games: GameScheduleEntry[]; withDay: boolean };

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The panels to cycle through, from what the season says now. */
export function panelsFor(standings: Standing[], schedule: GameScheduleEntry[], now: Date): Panel[] {
  const out: Panel[] = [];
  const standingPages = chunks(standings, STANDINGS_PER_PANEL);
  standingPages.forEach((rows, i) => out.push({ kind: 'standings', rows, offset: i * STANDINGS_PER_PANEL, page: i + 1, pages: standingPages.length }));
  // Today's games, plus any game still live from an earlier start.
  const today = schedule.filter((g) => dayKey(g.scheduledAt, null) === dayKey(now, null) || g.status === 'LIVE');
  if (today.length > 0) {
    for (const games of chunks(today, GAMES_PER_PANEL)) out.push({ kind: 'games', title: "Today's games", games, withDay: false });
  } else {
    const next = schedule.filter((g) => (g.status === 'SCHEDULED' || g.status === 'POSTPONED') && new Date(g.scheduledAt).getTime() > now.getTime()).slice(0, GAMES_PER_PANEL);
    if (next.length > 0) out.push({ kind: 'games', title: 'Coming up', games: next, withDay: true });
  }
  return out;
}

function StandingsPanel({ panel }: { panel: Extract<Panel, { kind: 'standings' }> }) {
  return (
    <section className="dpanel" aria-label="Standings">
      <h2 className="dpanel__title">
        Standings{panel.pages > 1 && <span className="dpanel__page"> {panel.page}/{panel.pages}</span>}
      </h2>
      <table className="dstand" data-testid="display-standings">
        <thead>
          <tr>
            <th scope="col" className="dstand__rank">
              <span className="sr-only">Place</span>
            </th>
            <th scope="col" className="dstand__name">
              Team
            </th>
            <th scope="col">GP</th>
            <th scope="col">W</th>
            <th scope="col">L</th>
            <th scope="col">T</th>
            <th scope="col">DIFF</th>
            <th scope="col" className="dstand__pts">
              PTS
            </th>
          </tr>
        </thead>
        <tbody>
          {panel.rows.map((s, i) => (
            <tr key={s.rosterId} data-testid={`display-standing-${s.rosterId}`}>
              <td className="dstand__rank">{panel.offset + i + 1}</td>
              <th scope="row" className="dstand__name">
                {s.name}
              </th>
              <td>{s.gamesPlayed}</td>
              <td>{s.wins}</td>
              <td>{s.losses}</td>
              <td>{s.ties}</td>
              <td>{goalDiff(s)}</td>
              <td className="dstand__pts">{s.points}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function stateOf(g: GameScheduleEntry, withDay: boolean): string {
  switch (g.status) {
    case 'LIVE':
      return g.period ? periodShort(g.period) : 'Live';
    case 'FINAL':
      return g.period === 'OT' || g.period === 'SO' ? `Final · ${g.period}` : 'Final';
    case 'SCHEDULED':
      return withDay ? `${rinkDayLabel(g.scheduledAt, null)} · ${rinkClock(g.scheduledAt, null)}` : rinkClock(g.scheduledAt, null);
    case 'POSTPONED':
      return 'Postponed';
    case 'CANCELLED':
      return 'Cancelled';
  }
}

function GamesPanel({ panel }: { panel: Extract<Panel, { kind: 'games' }> }) {
  return (
    <section className="dpanel" aria-label={panel.title}>
      <h2 className="dpanel__title">{panel.title}</h2>
      <ul className="dgames" data-testid="display-games">
        {panel.games.map((g) => {
          const scored = hasScore(g.status);
          const lead = g.status === 'FINAL' ? (g.homeScore > g.awayScore ? 'home' : g.awayScore > g.homeScore ? 'away' : null) : null;
          return (
            <li key={g.id} className={`dgame dgame--${g.status.toLowerCase()}`} data-testid={`display-game-${g.id}`}>
              <span className="dgame__state">
                {g.status === 'LIVE' && <span className="dgame__live">Live</span>}
                {stateOf(g, panel.withDay)}
              </span>
              <span className={`dgame__row${lead === 'home' ? ' dgame__row--won' : ''}`}>
                <span className="dgame__name">{g.homeRosterName}</span>
                <span className="dgame__score">{scored ? g.homeScore : ''}</span>
              </span>
              <span className={`dgame__row${lead === 'away' ? ' dgame__row--won' : ''}`}>
                <span className="dgame__name">{g.awayRosterName}</span>
                <span className="dgame__score">{scored ? g.awayScore : ''}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function SeasonDisplayPage() {
  const { id = '' } = useParams();
  const season = useSeasonQuery(id);
  const live = useLiveSeason(id);
  const freshness = useFreshness(live.isLive);
  const now = useNow(30_000);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), PANEL_MS);
    return () => clearInterval(t);
  }, []);

  // A server that was down at start: keep asking until the first read lands.
  const failed = Boolean(live.error) || season.isError;
  const notFound = (live.error instanceof ApiError && live.error.status === 404) || (season.error instanceof ApiError && season.error.status === 404);
  const retry = useEffectEvent(() => {
    void live.refetch();
    void season.refetch();
  });
  useEffect(() => {
    if (!failed || notFound) return undefined;
    const t = setInterval(() => retry(), RETRY_MS);
    return () => clearInterval(t);
  }, [failed, notFound]);

  const hasData = Boolean(live.standings && live.schedule);
  const mark = <ConnectionMark {...freshness} hasData={hasData} />;
  const title = season.data?.name ?? 'Rinkside';
  const subtitle = season.data ? `${season.data.facilityName}` : undefined;

  if (!live.standings || !live.schedule) {
    return (
      <DisplayFrame title={title} subtitle={subtitle} mark={mark} stale={false} testId="season-display">
        <div className="display__message">
          {failed ? (
            <>
              <p className="display__message-title">{notFound ? 'No such season' : 'Waiting for the server'}</p>
              <p className="display__message-text">{notFound ? 'Check the address of this display.' : `${errorMessage(live.error ?? season.error)} Trying again by itself.`}</p>
            </>
          ) : (
            <Spinner size="lg" label="Loading season" />
          )}
        </div>
      </DisplayFrame>
    );
  }

  const panels = panelsFor(live.standings, live.schedule, now);
  const index = panels.length > 0 ? tick % panels.length : 0;
  const panel = panels[index];
  return (
    <DisplayFrame
      title={title}
      subtitle={subtitle}
      mark={mark}
      stale={!freshness.fresh}
      testId="season-display"
      footer={
        panels.length > 1 && (
          <ol className="dpanels" aria-label="Screens">
            {panels.map((p, i) => (
              <li key={i} className={`dpanels__dot${i === index ? ' dpanels__dot--on' : ''}`}>
                {p.kind === 'standings' ? 'Standings' : p.title}
              </li>
            ))}
          </ol>
        )
      }
    >
      {!panel ? (
        <div className="display__message">
          <p className="display__message-title">No rosters yet</p>
          <p className="display__message-text">Standings and games appear here as soon as the season has them.</p>
        </div>
      ) : panel.kind === 'standings' ? (
        <StandingsPanel key={`s-${index}`} panel={panel} />
      ) : (
        <GamesPanel key={`g-${index}`} panel={panel} />
      )}
    </DisplayFrame>
  );
}
