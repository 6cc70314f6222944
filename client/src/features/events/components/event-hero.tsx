import { Link } from 'react-router';
import type { RinkEvent } from '../../../lib/api-types';
import { dayLabel, EVENT_TYPE_LABELS, isEventOver, isEventUnderway, relativeTime, timeRange } from '../../../lib/event-format';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CalendarIcon, EditIcon, PinIcon } from '../../../components/ui/icons';
import { useFacilityById } from '../api/events';
import { countsLine } from '../model/standing';
import '../../../components/ui/event-card.css';
import type { AttendeesDoc } from '../model/types';

function Countdown({ event, cancelled }: { event: RinkEvent; cancelled: boolean }) {
  if (cancelled) return <span className="event-chip event-chip--cancelled">Cancelled</span>;
  if (isEventUnderway(event)) return <span className="event-chip event-chip--going">Happening now</span>;
  if (isEventOver(event)) return <span className="event-chip event-chip--muted">Ended</span>;
  return <span className="event-chip event-chip--muted">Starts {relativeTime(event.startDate)}</span>;
}

export function EventHero({ event, doc, cancelled, isLive }: { event: RinkEvent; doc: AttendeesDoc | null; cancelled: boolean; isLive: boolean }) {
  const facility = useFacilityById(event.facilityId);
  const type = event.eventType.toLowerCase();
  const hasImage = Boolean(event.imageUrl && /^https?:\/\//i.test(event.imageUrl));
  return (
    <Card padded={false} className={`event-hero event-card--${type}`} data-testid="event-hero">
      <div className={`event-hero__banner event-hero__banner--${type}`} aria-hidden="true">
        {hasImage && <img src={event.imageUrl ?? ''} alt="" className="event-hero__img" onError={(e) => (e.currentTarget.style.display = 'none')} />}
      </div>
      <div className="event-hero__body">
        <div className="event-hero__chips">
          <span className="event-chip">{EVENT_TYPE_LABELS[event.eventType]}</span>
          <Countdown event={event} cancelled={cancelled} />
        </div>
        <h1 className={`event-hero__title${cancelled ? ' event-hero__title--cancelled' : ''}`}>{event.title}</h1>
        <ul className="event-hero__facts">
          <li>
            <CalendarIcon size={18} />
            <span>
              <strong>{dayLabel(event.startDate)}</strong> · {timeRange(event.startDate, event.endDate)}
            </span>
          </li>
          {(event.facilityId || event.location || event.externalRink) && (
            <li>
              <PinIcon size={18} />
              <span>
                {event.facilityId && facility.data && <Link to={`/facilities/${event.facilityId}`}>{facility.data.name}</Link>}
                {event.facilityId && facility.data && (event.location || event.externalRink) && ' · '}
                {event.location ?? event.externalRink}
              </span>
            </li>
          )}
        </ul>
        <div className="event-hero__bottom">
          <p className="event-hero__counts" data-testid="event-counts" aria-live="polite">
            {isLive && <span className="live-dot" aria-hidden="true" />}
            {doc ? countsLine(doc.counts) : '\u00a0'}
          </p>
          {event.viewer?.isOrganiser && !cancelled && (
            <ButtonLink to={`/events/${event.id}/edit`} size="sm" variant="secondary" icon={<EditIcon size={16} />} data-testid="edit-event">
              Edit
            </ButtonLink>
          )}
        </div>
      </div>
    </Card>
  );
}
