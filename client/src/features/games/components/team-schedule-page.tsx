// /teams/:id/schedule — every game of a team's rosters, home or away,
// earliest first, with results from the team's side (W / L / T). Filter by
// season; pages load on demand.

import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { TeamPage } from '../../../lib/api-types';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, TeamIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { useRinkZone } from '../../../lib/facilities';
import { useTeam, useTeamSchedule } from '../api/games';
import { ScheduleList } from './schedule-list';
import '../games.css';

export function TeamSchedulePage() {
  const { id = '' } = useParams();
  const team = useTeam(id);
  if (team.isPending) return <PageSpinner label="Loading team" />;
  if (team.isError) {
    const notFound = team.error instanceof ApiError && team.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<TeamIcon size={28} />}
          title={notFound ? 'This team is not on Rinkside' : 'Could not load this team'}
          action={notFound ? <ButtonLink to="/teams">All teams</ButtonLink> : <Button variant="secondary" onClick={() => void team.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been deleted by its owner.' : errorMessage(team.error)}
        </EmptyState>
      </Card>
    );
  }
  return <TeamSchedule team={team.data} />;
}

function TeamSchedule({ team }: { team: TeamPage }) {
  const [seasonId, setSeasonId] = useState<string | null>(null);
  const schedule = useTeamSchedule(team.id, seasonId);
  const entries = schedule.data?.pages.flatMap((p) => p.items) ?? [];
  // Times on the home rink's clock (docs/conventions.md › Times on screen).
  const rinkZone = useRinkZone(team.facilityId);
  // One chip per season the team has a roster in (rosters come latest season first).
  const seasons = [...new Map(team.rosters.map((r) => [r.seasonId, r.seasonName])).entries()];

  return (
    <div className="team-schedule" data-testid="team-schedule">
      <PageHeader eyebrow={<Link to={`/teams/${team.id}`}>{team.name}</Link>} title="Schedule" subtitle="Every game of the team's rosters, home and away." />
      {seasons.length > 1 && (
        <div className="tabs" role="tablist" aria-label="Season">
          <button type="button" role="tab" aria-selected={seasonId === null} className={`tabs__tab${seasonId === null ? ' active' : ''}`} onClick={() => setSeasonId(null)}>
            All seasons
          </button>
          {seasons.map(([sid, name]) => (
            <button key={sid} type="button" role="tab" aria-selected={seasonId === sid} className={`tabs__tab${seasonId === sid ? ' active' : ''}`} onClick={() => setSeasonId(sid)}>
              {name}
            </button>
          ))}
        </div>
      )}
      <Card>
        {schedule.isPending ? (
          <PageSpinner label="Loading schedule" />
        ) : schedule.isError ? (
          <EmptyState icon={<CalendarIcon size={28} />} title="Could not load the schedule" action={<Button variant="secondary" onClick={() => void schedule.refetch()}>Try again</Button>}>
            {errorMessage(schedule.error)}
          </EmptyState>
        ) : entries.length === 0 ? (
          <EmptyState icon={<CalendarIcon size={28} />} title="No games yet">
            Games show up here once the league schedules them.
          </EmptyState>
        ) : (
          <>
            <ScheduleList entries={entries} teamId={team.id} showSeason={seasonId === null && seasons.length > 1} zone={rinkZone} />
            <LoadMore hasMore={Boolean(schedule.hasNextPage)} loading={schedule.isFetchingNextPage} onLoadMore={() => void schedule.fetchNextPage()} />
          </>
        )}
      </Card>
      {seasons.length > 0 && (
        <div className="team-schedule__seasons">
          {seasons.map(([sid, name]) => (
            <ButtonLink key={sid} to={`/seasons/${sid}/games`} size="sm" variant="ghost" icon={<CalendarIcon size={16} />}>
              {name}: standings
            </ButtonLink>
          ))}
        </div>
      )}
    </div>
  );
}
