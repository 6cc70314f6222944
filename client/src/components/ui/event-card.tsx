// One event in a list: a calendar tile, the title, when and where, its type,
// whether it is a community event at its rink, and (when known) the live
// counts. Presentational: callers pass the place name and counts they know.

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { RinkEvent } from '../../lib/api-types';
import { EVENT_TYPE_LABELS, isCommunityEvent } from '../../lib/event-format';
import { rinkDateTile, rinkTimeRange } from '../../lib/time-zone';
import { ChevronRightIcon, ClockIcon, PinIcon } from './icons';
import './event-card.css';

export interface EventCardProps {
  event: RinkEvent;
  /** Facility name and/or location, already joined. */
  place?: string | null;
  /** "9/10 skaters · 1/1 goalie", when known. */
  counts?: ReactNode;
  /** Extra status on the right of the chips (e.g. "Full"). */
  badge?: ReactNode;
  compact?: boolean;
  testId?: string;
  /**
   * The rink's IANA zone, when the caller knows it: the day and time are on
   * the rink's clock, labelled when the device's differs (lib/rink-time.ts).
   * Without it, the device's clock.
   */
  timeZone?: string | null;
}

export function EventCard({ event, place, counts, badge, compact = false, testId, timeZone = null }: EventCardProps) {
  const tile = rinkDateTile(event.startDate, timeZone);
  const cancelled = Boolean(event.cancelledAt);
  return (
    <Link
      to={`/events/${event.id}`}
      className={`event-card event-card--${event.eventType.toLowerCase()}${cancelled ? ' event-card--cancelled' : ''}${compact ? ' event-card--compact' : ''}`}
      data-testid={testId}
    >
      <span className="event-card__tile" aria-hidden="true">
        <span className="event-card__weekday">{tile.weekday}</span>
        <span className="event-card__day">{tile.day}</span>
        <span className="event-card__month">{tile.month}</span>
      </span>
      <span className="event-card__body">
        <span className="event-card__chips">
          <span className="event-chip">{EVENT_TYPE_LABELS[event.eventType]}</span>
          {cancelled && <span className="event-chip event-chip--cancelled">Cancelled</span>}
          {isCommunityEvent(event) && (
            <span className="event-chip event-chip--community" title="Held at the rink, but not run or listed by it">
              Community
            </span>
          )}
          {badge}
        </span>
        <span className="event-card__title">{event.title}</span>
        <span className="event-card__meta">
          <ClockIcon size={15} />
          <span className="sr-only">{tile.weekday} {tile.month} {tile.day}, </span>
          {rinkTimeRange(event.startDate, event.endDate, timeZone)}
        </span>
        {place && (
          <span className="event-card__meta">
            <PinIcon size={15} />
            <span className="event-card__place">{place}</span>
          </span>
        )}
        {counts && <span className="event-card__counts">{counts}</span>}
      </span>
      {!compact && <ChevronRightIcon size={20} className="event-card__chev" />}
    </Link>
  );
}
