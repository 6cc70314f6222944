// /seasons/:id/games — a season's games: the schedule (live scores as games
// are played), the standings in the server's order, and the scoring
// leaders. Everything follows the `season:ID` topic. The facility's staff
// and the teams' owners and managers schedule games here and edit those
// that have not started.

import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../../../lib/api';
import type { GameScheduleEntry, SeasonDetail } from '../../../lib/api-types';
import { seasonGameKeys, useLiveSeason, useSeasonQuery } from '../../../lib/games';
import { useRinkZone } from '../../../lib/facilities';
import { formatDayRange, shownZone } from '../../../lib/time-zone';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, PlusIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { useLeaders, useManagedRosterIds, useSeasonRosters } from '../api/games';
import { ScreenIcon } from './game-icons';
import { LeadersTable } from './leaders-table';
import { ScheduleGameForm } from './schedule-game-form';
import { ScheduleList } from './schedule-list';
import { StandingsTable } from './standings-table';
import '../games.css';

/** Pushes gathered before the leaders are read again. */
const LEADERS_REFRESH_MS = 600;

type Filter = 'upcoming' | 'results' | 'all';

function filterSchedule(entries: GameScheduleEntry[], filter: Filter, now: Date): GameScheduleEntry[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  switch (filter) {
    case 'upcoming':
      return entries.filter((e) => e.status === 'LIVE' || ((e.status === 'SCHEDULED' || e.status === 'POSTPONED') && new Date(e.scheduledAt).getTime() >= startOfToday));
    case 'results':
      return entries.filter((e) => e.status === 'FINAL').reverse();
    case 'all':
      return entries;
  }
}

export function SeasonGamesPage() {
  const { id = '' } = useParams();
  const season = useSeasonQuery(id);
  if (season.isPending) return <PageSpinner label="Loading season" />;
  if (season.isError) {
    const notFound = season.error instanceof ApiError && season.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<CalendarIcon size={28} />}
          title={notFound ? 'This season is not on Rinkside' : 'Could not load this season'}
          action={notFound ? <ButtonLink to="/facilities">Facilities</ButtonLink> : <Button variant="secondary" onClick={() => void season.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been removed by its facility.' : errorMessage(season.error)}
        </EmptyState>
      </Card>
    );
  }
  return <SeasonGames season={season.data} />;
}

function SeasonGames({ season }: { season: SeasonDetail }) {
  const live = useLiveSeason(season.id);
  const rosters = useSeasonRosters(season.id);
  const facilityStaff = season.viewerCanEdit;
  const managed = useManagedRosterIds(rosters.data, !facilityStaff);
  const canSchedule = facilityStaff || managed.ids.size > 0;
  const leaders = useLeaders(season.id);
  const rinkZone = useRinkZone(season.facilityId);
  const queryClient = useQueryClient();
  const [showForm, setShowForm] = useState(false);
  const [filter, setFilter] = useState<Filter | null>(null);
  const now = new Date();

  // Every push means a game changed; the leaders come from the same games.
  const seq = live.seq;
  useEffect(() => {
    if (seq === null) return undefined;
    const t = setTimeout(() => void queryClient.invalidateQueries({ queryKey: seasonGameKeys.leaders(season.id) }), LEADERS_REFRESH_MS);
    return () => clearTimeout(t);
  }, [seq, season.id, queryClient]);

  const schedule = live.schedule ?? [];
  const upcoming = filterSchedule(schedule, 'upcoming', now);
  const shownFilter: Filter = filter ?? (upcoming.length > 0 ? 'upcoming' : 'all');
  const shown = filterSchedule(schedule, shownFilter, now);
  const canEdit = (e: GameScheduleEntry) => facilityStaff || managed.ids.has(e.homeRosterId) || managed.ids.has(e.awayRosterId);
  const liveCount = schedule.filter((e) => e.status === 'LIVE').length;

  return (
    <div className="season-games" data-testid="season-games">
      <PageHeader
        eyebrow={<Link to={`/facilities/${season.facilityId}`}>{season.facilityName}</Link>}
        title={season.name}
        subtitle={`${formatDayRange(season.startDate, season.endDate, shownZone(rinkZone))} · games, standings and scoring leaders`}
        actions={
          <>
            <ButtonLink to={`/display/season/${season.id}`} target="_blank" rel="noopener" icon={<ScreenIcon size={18} />} data-testid="open-season-display">
              Arena display
            </ButtonLink>
            {canSchedule && !showForm && (
              <Button icon={<PlusIcon size={18} />} onClick={() => setShowForm(true)} data-testid="open-schedule-form">
                Schedule a game
              </Button>
            )}
          </>
        }
      />

      {canSchedule && showForm && (
        <Card>
          <CardHeader
            title="Schedule a game"
            subtitle={facilityStaff ? 'Pair any two rosters of this season.' : 'Your roster against any roster of this season.'}
            action={
              <Button size="sm" variant="ghost" onClick={() => setShowForm(false)}>
                Close
              </Button>
            }
          />
          {rosters.isPending ? (
            <PageSpinner label="Loading rosters" />
          ) : (
            <ScheduleGameForm seasonId={season.id} rosters={rosters.data ?? []} managedRosterIds={managed.ids} facilityStaff={facilityStaff} />
          )}
        </Card>
      )}

      <div className="season-layout">
        <div className="season-layout__main">
          <Card>
            <CardHeader title={<span className="game-with-live">{live.isLive && <span className="game-live-dot" aria-hidden="true" />}Standings</span>} subtitle="Points (win 2, tie 1), then wins, goal difference, goals for." />
            {live.standings ? <StandingsTable standings={live.standings} /> : live.error ? <p className="empty-line">{errorMessage(live.error)}</p> : <PageSpinner label="Loading standings" />}
          </Card>

          <Card>
            <CardHeader title={liveCount > 0 ? `Schedule · ${liveCount} live now` : 'Schedule'} />
            {schedule.length > 0 && (
              <div className="tabs sched-filter" role="tablist" aria-label="Which games">
                {(['upcoming', 'results', 'all'] as const).map((f) => (
                  <button key={f} type="button" role="tab" aria-selected={shownFilter === f} className={`tabs__tab${shownFilter === f ? ' active' : ''}`} onClick={() => setFilter(f)} data-testid={`filter-${f}`}>
                    {f === 'upcoming' ? 'Upcoming' : f === 'results' ? 'Results' : 'All'}
                  </button>
                ))}
              </div>
            )}
            {live.isPending ? (
              <PageSpinner label="Loading schedule" />
            ) : schedule.length === 0 ? (
              <EmptyState icon={<CalendarIcon size={28} />} title="No games scheduled yet">
                {canSchedule ? 'Schedule the first one with the button above.' : 'Games show up here as soon as the league schedules them.'}
              </EmptyState>
            ) : shown.length === 0 ? (
              <p className="empty-line">{shownFilter === 'results' ? 'No results yet.' : 'No games coming up.'}</p>
            ) : (
              <ScheduleList entries={shown} canEdit={canEdit} now={now} zone={rinkZone} />
            )}
          </Card>
        </div>
        <aside className="season-layout__side">
          <Card>
            <CardHeader title="Scoring leaders" subtitle="Points: goals plus assists." />
            {leaders.data ? <LeadersTable leaders={leaders.data} /> : leaders.isError ? <p className="empty-line">{errorMessage(leaders.error)}</p> : <PageSpinner label="Loading leaders" />}
          </Card>
        </aside>
      </div>
    </div>
  );
}
