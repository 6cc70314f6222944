// The "Weekly" card on a series event's page: the pattern ("Every Tuesday
// at 9:30 PM · until Mar 30"), where this one falls ("Event 3 of 17"), and
// every date as a link — this one marked, past ones dimmed, cancelled ones
// struck through. One row that scrolls sideways, so a year of Tuesdays stays
// one line tall on a phone. Times are read on the series' clock (the rink's,
// docs/series.md), which is the clock the pattern is kept on. The row
// follows the `series:ID` topic, so other weeks' changes show live.

import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import type { EventSeries, RinkEvent } from '../../../lib/api-types';
import { isEventOver } from '../../../lib/event-format';
import { deviceZone, zoneName } from '../../../lib/time-zone';
import { Card, CardHeader } from '../../../components/ui/card';
import { useTopic } from '../../../lib/ws';
import { useEventSeries } from '../api/events';
import { seriesPattern, shortDay, wallClockIn } from '../model/series';

/**
 * The event whose wall clock the pattern states: the last one still on.
 * "This and all following" edits reach the end of a series, so its last
 * event is the one that shows where the series is going.
 */
function patternEvent(series: EventSeries) {
  const on = series.events.filter((e) => !e.cancelledAt);
  return on[on.length - 1] ?? series.events[series.events.length - 1] ?? null;
}

export function SeriesStrip({ event }: { event: RinkEvent }) {
  const query = useEventSeries(event.seriesId);
  // Live: another week cancelled, moved or deleted by an organiser shows at once.
  const live = useTopic<EventSeries>(event.seriesId ? `series:${event.seriesId}` : null);
  const list = useRef<HTMLOListElement>(null);
  const series = live?.data.id === event.seriesId ? live.data : query.data;

  // Bring this event's chip into view inside the row (not the page: no scrollIntoView).
  useEffect(() => {
    const row = list.current;
    const here = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !here) return;
    row.scrollLeft = Math.max(0, here.offsetLeft - row.offsetLeft - (row.clientWidth - here.offsetWidth) / 2);
  }, [series, event.id]);

  if (!event.seriesId) return null;
  if (!series) {
    return (
      <Card className="event-block series-strip" data-testid="series-strip">
        <CardHeader title="Weekly" subtitle={query.isError ? `Could not load the other weeks: ${errorMessage(query.error)}` : 'Loading the other weeks…'} />
      </Card>
    );
  }

  const tz = series.timeZone || null;
  const lead = patternEvent(series);
  const pattern = lead ? seriesPattern(lead.startDate, series.until, tz) : '';
  const leadTime = lead ? wallClockIn(lead.startDate, tz)?.time : undefined;
  const zoneNote = tz && tz !== deviceZone() ? ` (${zoneName(tz.slice(tz.lastIndexOf('/') + 1))} time)` : '';
  const index = series.events.findIndex((e) => e.id === event.id);
  const thisYear = new Date().getFullYear();

  return (
    <Card className="event-block series-strip" data-testid="series-strip">
      <CardHeader
        title="Weekly"
        subtitle={
          <span data-testid="series-pattern">
            {pattern}
            {zoneNote}
          </span>
        }
        action={
          index >= 0 ? (
            <span className="series-strip__count" data-testid="series-position">
              Event {index + 1} of {series.events.length}
            </span>
          ) : undefined
        }
      />
      <ol className="series-strip__dates" ref={list} aria-label="Every week of this series">
        {series.events.map((e) => {
          const wall = wallClockIn(e.startDate, tz);
          const current = e.id === event.id;
          const past = isEventOver(e);
          const cancelled = Boolean(e.cancelledAt);
          const day = wall ? shortDay(wall.day, undefined, Number(wall.day.slice(0, 4)) !== thisYear) : '';
          // A week moved on its own shows its time; the others keep the pattern's.
          const ownTime = wall && wall.time !== leadTime ? wall.time : null;
          const cls = ['series-chip', current && 'series-chip--current', past && 'series-chip--past', cancelled && 'series-chip--cancelled'].filter(Boolean).join(' ');
          return (
            <li key={e.id}>
              <Link to={`/events/${e.id}`} className={cls} aria-current={current ? 'page' : undefined} data-testid={`series-date-${e.id}`} data-cancelled={cancelled || undefined}>
                {cancelled ? <s className="series-chip__day">{day}</s> : <span className="series-chip__day">{day}</span>}
                {ownTime && <span className="series-chip__time">{ownTime}</span>}
                {cancelled && <span className="sr-only">, cancelled</span>}
                {past && !cancelled && <span className="sr-only">, past</span>}
              </Link>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
