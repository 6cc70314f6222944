// The public side of a schedule: a person's teams' games and events (on
// their profile), or a team's (on its page). Nobody's answers.

import { errorMessage } from '../../../lib/api';
import type { Schedule } from '../../../lib/api-types';
import { Card, CardHeader } from '../../../components/ui/card';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTeamUpcoming, useUserSchedule } from '../api/schedule';
import { ScheduleList } from './schedule-row';
import '../schedule.css';

const SHOWN = 8;

function UpcomingCard({ title, query, empty, testId }: { title: string; query: UseQueryResult<Schedule>; empty: string; testId: string }) {
  const items = (query.data?.items ?? []).slice(0, SHOWN);
  return (
    <Card data-testid={testId}>
      <CardHeader title={title} subtitle="The next four weeks, at each rink's time." />
      {query.isPending ? (
        <div className="sched-skeleton skeleton" aria-hidden="true" />
      ) : query.isError ? (
        <p className="muted">{errorMessage(query.error)}</p>
      ) : items.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ScheduleList items={items} />
      )}
    </Card>
  );
}

export function PersonSchedule({ userId, name }: { userId: string; name: string }) {
  return <UpcomingCard title={`${name}'s teams: next up`} query={useUserSchedule(userId)} empty="No team games or events coming up." testId="person-schedule" />;
}

export function TeamUpcoming({ teamId }: { teamId: string }) {
  return <UpcomingCard title="Coming up" query={useTeamUpcoming(teamId)} empty="No games or events in the next four weeks." testId="team-upcoming" />;
}
