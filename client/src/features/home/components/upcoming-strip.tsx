// "Upcoming — I'm attending": the next events I have a spot (or a place in
// line) for, as a swipeable strip on phones.

import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { ButtonLink } from '../../../components/ui/button';
import { EventCard } from '../../../components/ui/event-card';
import { CalendarIcon } from '../../../components/ui/icons';
import { useUpcomingEvents } from '../api/home';
import '../home.css';

export function UpcomingStrip() {
  const upcoming = useUpcomingEvents();
  const items = upcoming.data?.items ?? [];
  return (
    <section className="upcoming" aria-labelledby="upcoming-title" data-testid="upcoming-strip">
      <div className="upcoming__head">
        <h2 id="upcoming-title" className="upcoming__title">
          Upcoming <span className="upcoming__sub">I'm attending</span>
        </h2>
        <ButtonLink to="/events" size="sm" variant="ghost" data-testid="all-events">
          All events
        </ButtonLink>
      </div>
      {upcoming.isPending ? (
        <div className="upcoming__row" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <span key={i} className="upcoming__skeleton skeleton" />
          ))}
        </div>
      ) : upcoming.isError ? (
        <p className="muted">{errorMessage(upcoming.error)}</p>
      ) : items.length === 0 ? (
        <Link to="/events" className="upcoming__empty">
          <CalendarIcon size={22} />
          <span>
            <strong>Nothing on your calendar yet.</strong>
            <span className="muted"> Find a skate or a game and grab a spot.</span>
          </span>
        </Link>
      ) : (
        <ul className="upcoming__row">
          {items.map((e) => (
            <li key={e.id} className="upcoming__item">
              <EventCard event={e} place={e.location ?? e.externalRink} compact testId={`upcoming-${e.id}`} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
