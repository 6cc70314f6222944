// The top of the event page: type, countdown, title, when and where, and
// whether the rink runs it. A community event (held at a rink by someone who
// is not its staff, and not listed by it) says so beside the rink's name and
// names its organiser, so nobody takes it for the rink's own.

import { Link } from 'react-router';
import type { RinkEvent } from '../../../lib/api-types';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { EVENT_TYPE_LABELS, isCommunityEvent, isEventOver, isEventUnderway, relativeTime } from '../../../lib/event-format';
import { rinkDayLabel, rinkTimeRange } from '../../../lib/time-zone';
import { displayName } from '../../../lib/format';
import { usePerson } from '../../../lib/orgs';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CalendarIcon, EditIcon, PeopleIcon, PinIcon } from '../../../components/ui/icons';
import { useFacility } from '../../../lib/facilities';
import { countsLine } from '../model/standing';
import '../../../components/ui/event-card.css';
import type { AttendeesDoc } from '../model/types';

function Countdown({ event, cancelled }: { event: RinkEvent; cancelled: boolean }) {
  if (cancelled) return <span className="event-chip event-chip--cancelled">Cancelled</span>;
  if (isEventUnderway(event)) return <span className="event-chip event-chip--going">Happening now</span>;
  if (isEventOver(event)) return <span className="event-chip event-chip--muted">Ended</span>;
  return <span className="event-chip event-chip--muted">Starts {relativeTime(event.startDate)}</span>;
}

/** "Organised by Bob Burns · not run by Maple Arena" under a community event's rink. */
function CommunityNote({ event, rinkName }: { event: RinkEvent; rinkName: string | null }) {
  const me = useCurrentUser();
  const mine = event.creatorId === me.id;
  const creator = usePerson(mine ? null : event.creatorId);
  return (
    <li className="event-hero__community" data-testid="community-note">
      <PeopleIcon size={18} />
      <span>
        Organised by{' '}
        {mine ? (
          'you'
        ) : (
          <Link to={`/users/${event.creatorId}`}>{creator.data ? displayName(creator.data) : 'a Rinkside member'}</Link>
        )}{' '}
        · <span className="event-hero__community-rink">not run by {rinkName ?? 'the rink'}</span>
      </span>
    </li>
  );
}

export function EventHero({ event, doc, cancelled, isLive }: { event: RinkEvent; doc: AttendeesDoc | null; cancelled: boolean; isLive: boolean }) {
  const facility = useFacility(event.facilityId);
  const rinkZone = facility.data?.timezone ?? null;
  const type = event.eventType.toLowerCase();
  const hasImage = Boolean(event.imageUrl && /^https?:\/\//i.test(event.imageUrl));
  const community = isCommunityEvent(event);
  return (
    <Card padded={false} className={`event-hero event-card--${type}`} data-testid="event-hero">
      <div className={`event-hero__banner event-hero__banner--${type}`} aria-hidden="true">
        {hasImage && <img src={event.imageUrl ?? ''} alt="" className="event-hero__img" onError={(e) => (e.currentTarget.style.display = 'none')} />}
      </div>
      <div className="event-hero__body">
        <div className="event-hero__chips">
          <span className="event-chip">{EVENT_TYPE_LABELS[event.eventType]}</span>
          {community && (
            <span className="event-chip event-chip--community" data-testid="community-chip">
              Community event
            </span>
          )}
          <Countdown event={event} cancelled={cancelled} />
        </div>
        <h1 className={`event-hero__title${cancelled ? ' event-hero__title--cancelled' : ''}`}>{event.title}</h1>
        <ul className="event-hero__facts">
          <li>
            <CalendarIcon size={18} />
            <span>
              <strong>{rinkDayLabel(event.startDate, rinkZone)}</strong> · {rinkTimeRange(event.startDate, event.endDate, rinkZone)}
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
          {community && <CommunityNote event={event} rinkName={facility.data?.name ?? null} />}
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
