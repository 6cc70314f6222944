// /series/:id — a weekly series as a whole (docs/series.md,
// docs/pickup-night.md): its pattern and every week, and for its organisers
// the RSVP rules of every week to come and the series' regulars. The weeks
// follow the `series:ID` topic, so another organiser's changes show live.

import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { EventSeries } from '../../../lib/api-types';
import { isEventOver } from '../../../lib/event-format';
import { useTopic } from '../../../lib/ws';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { PageSpinner } from '../../../components/ui/spinner';
import { ButtonLink } from '../../../components/ui/button';
import { useEventSeries } from '../api/events';
import { useSaveSeriesRules, useSeriesRules } from '../api/pickup-night';
import { seriesPattern, shortDay, wallClockIn } from '../model/series';
import { RegularsCard } from './regulars-card';
import { SeriesRecordCard } from './series-record-card';
import { RsvpRulesForm } from './rsvp-rules-form';
import '../events.css';
import '../event-page.css';
import '../pickup-night.css';

/** The next week still to come (not cancelled, not started): what the rules are previewed on. */
export function nextWeek(series: EventSeries, now: number = Date.now()) {
  return series.events.find((e) => !e.cancelledAt && Date.parse(e.startDate) > now) ?? null;
}

function SeriesRulesCard({ series }: { series: EventSeries }) {
  const query = useSeriesRules(series.id);
  const save = useSaveSeriesRules(series.id);
  // Not an organiser of the series: the rules are theirs to set, not shown here.
  if (!query.data) return null;
  const next = nextWeek(series);
  const wall = next ? wallClockIn(next.startDate, series.timeZone || null) : null;
  return (
    <Card className="rules-card" data-testid="series-rules">
      <CardHeader title="RSVP rules" subtitle="For every week not started yet. A week's own page can change its rules alone." />
      <RsvpRulesForm
        rules={query.data}
        startIso={next?.startDate ?? null}
        rinkZone={series.timeZone || null}
        saving={save.isPending}
        onSave={async (r) => {
          await save.mutateAsync(r);
        }}
        note="Applies to every upcoming week."
        previewTitle={wall ? `The next week, ${shortDay(wall.day)}:` : undefined}
        testIdPrefix="series-rules"
      />
    </Card>
  );
}

function Weeks({ series }: { series: EventSeries }) {
  const tz = series.timeZone || null;
  const next = nextWeek(series);
  return (
    <Card padded={false} data-testid="series-weeks-list">
      <div className="card__pad card__pad--header">
        <CardHeader title="Weeks" subtitle={`${series.events.length} ${series.events.length === 1 ? 'event' : 'events'}`} />
      </div>
      <ol className="series-weeks">
        {series.events.map((e) => {
          const wall = wallClockIn(e.startDate, tz);
          const past = isEventOver(e);
          const cls = ['series-weeks__row', past && 'series-weeks__row--past', e.cancelledAt && 'series-weeks__row--cancelled', e.id === next?.id && 'series-weeks__row--next'].filter(Boolean).join(' ');
          return (
            <li key={e.id}>
              <Link to={`/events/${e.id}`} className={cls} data-testid={`series-week-link-${e.id}`}>
                <span className="series-weeks__day">{wall ? `${shortDay(wall.day, undefined, true)} · ${wall.time}` : e.startDate}</span>
                <span className="series-weeks__title">{e.title}</span>
                {e.cancelledAt ? <span className="series-weeks__tag">Cancelled</span> : e.id === next?.id ? <span className="series-weeks__tag series-weeks__tag--next">Next</span> : past ? <span className="series-weeks__tag">Played</span> : null}
              </Link>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

export function SeriesPage() {
  const { id = '' } = useParams();
  const query = useEventSeries(id);
  const live = useTopic<EventSeries>(id ? `series:${id}` : null);
  // The rules are read by the series' organisers only: whether they came
  // back says whose record the page shows (everyone's, or the viewer's own).
  const organises = Boolean(useSeriesRules(id).data);
  const series = live?.data.id === id ? live.data : query.data;
  if (!series) {
    if (query.isPending) return <PageSpinner label="Loading the series" />;
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState icon={<CalendarIcon size={28} />} title={notFound ? 'This series is not on Rinkside' : 'Could not load this series'} action={<ButtonLink to="/events">All events</ButtonLink>}>
          {notFound ? 'Its events may have been deleted.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  const lead = series.events.filter((e) => !e.cancelledAt).at(-1) ?? series.events.at(-1) ?? null;
  const title = nextWeek(series)?.title ?? lead?.title ?? 'Weekly series';
  return (
    <div className="series-page" data-testid="series-page">
      <PageHeader eyebrow="Weekly series" title={title} subtitle={lead ? <span data-testid="series-page-pattern">{seriesPattern(lead.startDate, series.until, series.timeZone || null)}</span> : undefined} />
      <div className="series-page__layout">
        <div className="series-page__main">
          <SeriesRulesCard series={series} />
          <RegularsCard seriesId={series.id} />
          <SeriesRecordCard seriesId={series.id} isOrganiser={organises} />
        </div>
        <div className="series-page__side">
          <Weeks series={series} />
        </div>
      </div>
    </div>
  );
}
