// /schedule — my games and skates: a week at a time (Monday to Sunday,
// each item on its rink's day and clock) or as a list of the next four
// weeks; and my calendar feed.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { useMySchedule, windowFrom } from '../api/schedule';
import { addDays, startOfWeek, weekDays } from '../model/schedule';
import { deviceZone, zoneName } from '../../../lib/time-zone';
import { CalendarFeedCard } from './calendar-feed-card';
import { ScheduleList, ScheduleRow } from './schedule-row';
import '../schedule.css';

type View = 'week' | 'list';

export function MySchedulePage() {
  const [view, setView] = useState<View>('week');
  return (
    <div className="stack-lg my-schedule" data-testid="my-schedule">
      <PageHeader eyebrow="Me" title="My schedule" subtitle={`My games and skates, at each rink's time. This device: ${zoneName(deviceZone())}.`} />
      <div className="tabs" role="tablist" aria-label="View">
        {(['week', 'list'] as const).map((v) => (
          <button key={v} type="button" role="tab" aria-selected={view === v} className={`tabs__tab${view === v ? ' active' : ''}`} onClick={() => setView(v)}>
            {v === 'week' ? 'Week' : 'List'}
          </button>
        ))}
      </div>
      {view === 'week' ? <WeekView /> : <ListView />}
      <CalendarFeedCard />
    </div>
  );
}

function WeekView() {
  const [monday, setMonday] = useState(() => startOfWeek(new Date()));
  // A day either side: an item's rink day may differ from the browser's.
  const schedule = useMySchedule(windowFrom(addDays(monday, -1), 9));
  const days = weekDays(schedule.data?.items ?? [], monday);
  const label = `${monday.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} – ${addDays(monday, 6).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}`;
  return (
    <Card>
      <div className="week-nav">
        <Button size="sm" variant="ghost" icon={<ChevronLeftIcon size={16} />} onClick={() => setMonday(addDays(monday, -7))} aria-label="Previous week" />
        <strong data-testid="week-label">{label}</strong>
        <Button size="sm" variant="ghost" icon={<ChevronRightIcon size={16} />} onClick={() => setMonday(addDays(monday, 7))} aria-label="Next week" />
        <Button size="sm" variant="secondary" onClick={() => setMonday(startOfWeek(new Date()))}>
          This week
        </Button>
      </div>
      {schedule.isPending ? (
        <PageSpinner label="Loading your week" />
      ) : schedule.isError ? (
        <p className="muted">{errorMessage(schedule.error)}</p>
      ) : (
        <ol className="week" data-testid="week">
          {days.map((d) => (
            <li key={d.key} className="week__day">
              <h3 className="week__label">{d.date.toLocaleDateString(undefined, { weekday: 'long', month: 'short', day: 'numeric' })}</h3>
              {d.items.length === 0 ? (
                <p className="week__free muted">Free</p>
              ) : (
                <ul className="sched-list">
                  {d.items.map((i) => (
                    <ScheduleRow key={`${i.kind}-${i.id}`} item={i} showDay={false} />
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function ListView() {
  const schedule = useMySchedule();
  const items = schedule.data?.items ?? [];
  return (
    <Card>
      {schedule.isPending ? (
        <PageSpinner label="Loading your schedule" />
      ) : schedule.isError ? (
        <p className="muted">{errorMessage(schedule.error)}</p>
      ) : items.length === 0 ? (
        <EmptyState icon={<CalendarIcon size={28} />} title="Nothing in the next four weeks">
          Games of your rosters and the skates you answer show up here.
        </EmptyState>
      ) : (
        <ScheduleList items={items} testId="schedule-list" />
      )}
    </Card>
  );
}
