import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useEventList } from '../api/events';
import { useRinkZones } from '../../../lib/facilities';
import { errorMessage } from '../../../lib/api';
import { EVENT_TYPES, type RinkEvent } from '../../../lib/api-types';
import { EVENT_TYPE_LABELS } from '../../../lib/event-format';
import { dayKey, rinkDayLabel } from '../../../lib/time-zone';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FacilityPicker } from '../../../components/ui/facility-picker';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField, TextField } from '../../../components/ui/field';
import { CalendarIcon, FilterIcon, PlusIcon } from '../../../components/ui/icons';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { activePanelFilters, readParams, toFilters, WHEN_OPTIONS, writeParams, type ListParams, type When } from '../model/list-filters';
import { EventListItem } from './event-list-item';
import '../events.css';

/** Consecutive events of the same day, on each one's rink's calendar (docs/conventions.md), under one heading. */
function byDay(events: RinkEvent[], zones: Map<string, string>): Array<{ label: string; events: RinkEvent[] }> {
  const out: Array<{ label: string; events: RinkEvent[] }> = [];
  for (const e of events) {
    const label = rinkDayLabel(e.startDate, e.facilityId ? zones.get(e.facilityId) : null);
    const last = out[out.length - 1];
    if (last && last.label === label) last.events.push(e);
    else out.push({ label, events: [e] });
  }
  return out;
}

export function EventsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readParams(searchParams);
  const today = dayKey(new Date(), null);
  // Query keys hash by value, so a fresh object per render is fine.
  const filters = toFilters(params, today);
  const list = useEventList(filters);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const zones = useRinkZones(items.map((e) => e.facilityId));
  const [panelOpen, setPanelOpen] = useState(false);

  const update = (patch: Partial<ListParams>) => setSearchParams(writeParams({ ...params, ...patch }), { replace: true });
  const panelCount = activePanelFilters(params);
  const anyFilter = panelCount > 0 || params.going || params.mine || params.cancelled;

  return (
    <div className="stack-lg" data-testid="events-page">
      <PageHeader
        eyebrow="On the ice"
        title="Events"
        subtitle="Skates, practices, games and watch parties. Grab your spot before it's gone."
        actions={
          <ButtonLink to="/events/new" variant="primary" icon={<PlusIcon size={18} />} data-testid="new-event">
            New event
          </ButtonLink>
        }
      />

      <section className="event-filters" aria-label="Filters">
        <div className="event-filters__chips">
          <button
            type="button"
            className={`toggle-chip event-filters__more${panelOpen ? ' toggle-chip--on' : ''}`}
            aria-expanded={panelOpen}
            aria-controls="event-filter-panel"
            onClick={() => setPanelOpen((o) => !o)}
          >
            <FilterIcon size={16} /> Filters{panelCount > 0 && <span className="toggle-chip__count">{panelCount}</span>}
          </button>
          <ToggleChip on={params.going} onClick={() => update({ going: !params.going })} testId="filter-going">
            I'm attending
          </ToggleChip>
          <ToggleChip on={params.mine} onClick={() => update({ mine: !params.mine })} testId="filter-mine">
            Created by me
          </ToggleChip>
          <ToggleChip on={params.cancelled} onClick={() => update({ cancelled: !params.cancelled })} testId="filter-cancelled">
            Include cancelled
          </ToggleChip>
          {params.facilityId && (
            <ToggleChip
              on={params.community}
              onClick={() => update({ community: !params.community })}
              title="Also events other people hold at this rink, which the rink does not list"
              testId="filter-community"
            >
              Community events
            </ToggleChip>
          )}
        </div>
        <div id="event-filter-panel" className={`event-filters__panel${panelOpen ? ' event-filters__panel--open' : ''}`}>
          <SelectField label="When" value={params.when} onChange={(e) => update({ when: e.target.value as When })} data-testid="filter-when">
            {WHEN_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </SelectField>
          {params.when === 'custom' && (
            <>
              <TextField label="From" type="date" value={params.fromDay} max={params.toDay || undefined} onChange={(e) => update({ fromDay: e.target.value })} data-testid="filter-from" />
              <TextField label="To" type="date" value={params.toDay} min={params.fromDay || undefined} onChange={(e) => update({ toDay: e.target.value })} data-testid="filter-to" />
            </>
          )}
          <SelectField label="Type" value={params.eventType} onChange={(e) => update({ eventType: e.target.value as ListParams['eventType'] })} data-testid="filter-type">
            <option value="">All types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {EVENT_TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
          <FacilityPicker label="Facility" optional value={params.facilityId} onChange={(facilityId) => update({ facilityId })} placeholder="Any rink" data-testid="filter-facility" />
        </div>
      </section>

      {list.isPending ? (
        <EventListSkeleton />
      ) : list.isError ? (
        <Alert action={<Button variant="secondary" size="sm" onClick={() => void list.refetch()}>Try again</Button>}>{errorMessage(list.error)}</Alert>
      ) : items.length === 0 ? (
        <Card>
          <EmptyState
            icon={<CalendarIcon size={28} />}
            title={anyFilter ? 'Nothing matches these filters' : 'No events coming up'}
            action={
              anyFilter ? (
                <Button variant="secondary" onClick={() => setSearchParams(new URLSearchParams(), { replace: true })}>
                  Clear filters
                </Button>
              ) : (
                <ButtonLink to="/events/new" variant="primary">
                  Create an event
                </ButtonLink>
              )
            }
          >
            {params.facilityId && !params.community
              ? 'Only the events this rink lists show here. Turn on "Community events" for the ones others hold there too, or try a wider date range.'
              : anyFilter
                ? 'Try a wider date range or fewer filters.'
                : 'Book the ice and let people grab a spot.'}
          </EmptyState>
        </Card>
      ) : (
        <div className={`stack event-list${list.isPlaceholderData ? ' event-list--stale' : ''}`} data-testid="event-list">
          {byDay(items, zones).map((day) => (
            <section key={`${day.label}-${day.events[0]?.id}`} className="event-day">
              <h2 className="event-day__label">{day.label}</h2>
              <ul className="event-day__list">
                {day.events.map((e) => (
                  <EventListItem key={e.id} event={e} />
                ))}
              </ul>
            </section>
          ))}
          <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
        </div>
      )}
    </div>
  );
}

function ToggleChip({ on, onClick, children, title, testId }: { on: boolean; onClick: () => void; children: ReactNode; title?: string; testId?: string }) {
  return (
    <button type="button" className={`toggle-chip${on ? ' toggle-chip--on' : ''}`} aria-pressed={on} onClick={onClick} title={title} data-testid={testId}>
      {children}
    </button>
  );
}

function EventListSkeleton() {
  return (
    <ul className="event-day__list" aria-hidden="true">
      {[0, 1, 2].map((i) => (
        <li key={i} className="event-card event-card--skeleton">
          <span className="skeleton event-card__tile" />
          <span className="event-card__body">
            <span className="skeleton skeleton--line" style={{ width: '22%' }} />
            <span className="skeleton skeleton--line" style={{ width: `${55 + i * 12}%` }} />
            <span className="skeleton skeleton--line skeleton--short" />
          </span>
        </li>
      ))}
    </ul>
  );
}
