import { useRef } from 'react';
import type { RinkEvent } from '../../../lib/api-types';
import { useTopic } from '../../../lib/ws';
import { EventCard } from '../../../components/ui/event-card';
import { useFacility, useRinkZone } from '../../../lib/facilities';
import { useKnownAttendees } from '../api/live';
import { eventTopic } from '../atoms';
import { countsLine, spotsLeft } from '../model/standing';
import { useInView } from '../model/use-in-view';

/** Where an event is: the facility's name and/or the free-text location. */
export function usePlace(event: RinkEvent): string | null {
  const facility = useFacility(event.facilityId);
  const parts = [facility.data?.name, event.location ?? event.externalRink].filter((s): s is string => Boolean(s && s.trim()));
  return parts.length ? parts.join(' · ') : null;
}

/**
 * A card that follows its event's counts live while it is on screen (one
 * topic subscription per visible card, dropped shortly after it scrolls
 * away) and keeps the last known counts otherwise.
 */
export function EventListItem({ event }: { event: RinkEvent }) {
  const ref = useRef<HTMLLIElement>(null);
  const visible = useInView(ref);
  useTopic(visible && !event.cancelledAt ? eventTopic(event.id) : null);
  const doc = useKnownAttendees(event.id);
  const place = usePlace(event);
  const zone = useRinkZone(event.facilityId);
  const counts = doc?.counts;
  const full = counts && !event.cancelledAt && spotsLeft(counts, 'SKATER') === 0;
  return (
    <li ref={ref} className="event-list__item">
      <EventCard
        event={event}
        place={place}
        counts={counts ? countsLine(counts) : null}
        badge={full ? <span className="event-chip event-chip--full">Full</span> : undefined}
        testId={`event-card-${event.id}`}
        timeZone={zone}
      />
    </li>
  );
}
