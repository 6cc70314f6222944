// /display/facility/:id/subs — the rink lobby's screen, signed out: which
// games tonight are still short a goalie or skaters, at what level, live
// from `spots:<facilityId>`. A player walking past with their gear sees it
// and takes the spot on their phone. More games than fit turn pages.

import { useEffect, useEffectEvent, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { SpotsDocument } from '../../../lib/api-types';
import { rinkClock, rinkDayLabel } from '../../../lib/time-zone';
import { DIVISION_LABELS } from '../../../lib/format';
import { Spinner } from '../../../components/ui/spinner';
import { useLiveSpots } from '../api/spots';
import { useFacility } from '../../../lib/facilities';
import { ConnectionMark, DisplayFrame, useFreshness, useNow } from './display-frame';

/** Games per screen (readable from across the lobby at 1080p). */
export const SPOTS_PER_PAGE = 5;
/** How long each page stays up. */
export const SPOTS_PAGE_MS = 12_000;
/** How often a display that could not load the rink asks again. */
const RETRY_MS = 5_000;

type SpotEvent = SpotsDocument['events'][number];

/** Games that have not started and still have a place open, soonest first. */
export function openEvents(doc: SpotsDocument, now: Date): SpotEvent[] {
  return doc.events
    .filter((e) => !e.cancelled && Date.parse(e.startDate) > now.getTime() && ((e.open.goalies ?? 0) > 0 || (e.open.skaters ?? 0) > 0))
    .sort((a, b) => Date.parse(a.startDate) - Date.parse(b.startDate));
}

function minutesUntil(iso: string, now: Date): string {
  const min = Math.round((Date.parse(iso) - now.getTime()) / 60_000);
  if (min < 1) return 'starting now';
  if (min < 60) return `in ${min} min`;
  const h = Math.floor(min / 60);
  const m = min % 60;
  return m ? `in ${h} h ${m} min` : `in ${h} h`;
}

function SpotRow({ event, tz, now }: { event: SpotEvent; tz: string; now: Date }) {
  const goalies = event.open.goalies ?? 0;
  const skaters = event.open.skaters ?? 0;
  const today = rinkDayLabel(event.startDate, null, now) === 'Today';
  return (
    <li className="dspot" data-testid={`lobby-spot-${event.id}`}>
      <span className="dspot__when">
        <span className="dspot__time">{rinkClock(event.startDate, tz)}</span>
        <span className="dspot__in">{today ? minutesUntil(event.startDate, now) : rinkDayLabel(event.startDate, null, now)}</span>
      </span>
      <span className="dspot__what">
        <span className="dspot__title">{event.title}</span>
        <span className="dspot__level">{event.level ? DIVISION_LABELS[event.level] : 'All levels'}</span>
      </span>
      <span className="dspot__open">
        {goalies > 0 && (
          <span className="dspot__role dspot__role--goalie" data-testid="lobby-goalies">
            <span className="dspot__count">{goalies}</span>
            <span className="dspot__noun">{goalies === 1 ? 'goalie' : 'goalies'}</span>
          </span>
        )}
        {skaters > 0 && (
          <span className="dspot__role" data-testid="lobby-skaters">
            <span className="dspot__count">{skaters}</span>
            <span className="dspot__noun">{skaters === 1 ? 'skater' : 'skaters'}</span>
          </span>
        )}
      </span>
    </li>
  );
}

export function LobbyDisplayPage() {
  const { id = '' } = useParams();
  const facility = useFacility(id, { anonymous: true });
  const doc = useLiveSpots(id);
  const freshness = useFreshness(doc !== null);
  const now = useNow(30_000);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), SPOTS_PAGE_MS);
    return () => clearInterval(t);
  }, []);

  const notFound = facility.error instanceof ApiError && facility.error.status === 404;
  const retry = useEffectEvent(() => void facility.refetch());
  useEffect(() => {
    if (!facility.isError || notFound) return undefined;
    const t = setInterval(() => retry(), RETRY_MS);
    return () => clearInterval(t);
  }, [facility.isError, notFound]);

  const title = doc?.facilityName ?? facility.data?.name ?? 'Rinkside';
  const mark = <ConnectionMark {...freshness} hasData={doc !== null} what="Spots" />;
  const footer = (
    <p className="dspots__cta">
      Free to play? Open <strong>Rinkside</strong> › <strong>Subs &amp; teams</strong> and take a spot.
    </p>
  );

  if (!doc) {
    return (
      <DisplayFrame title={title} subtitle="Open spots tonight" mark={mark} stale={false} testId="lobby-display">
        <div className="display__message">
          {notFound ? (
            <>
              <p className="display__message-title">No such rink</p>
              <p className="display__message-text">Check the address of this display.</p>
            </>
          ) : facility.isError ? (
            <>
              <p className="display__message-title">Waiting for the server</p>
              <p className="display__message-text">{errorMessage(facility.error)} Trying again by itself.</p>
            </>
          ) : (
            <Spinner size="lg" label="Loading open spots" />
          )}
        </div>
      </DisplayFrame>
    );
  }

  const events = openEvents(doc, now);
  const pages = Math.max(1, Math.ceil(events.length / SPOTS_PER_PAGE));
  const page = tick % pages;
  const shown = events.slice(page * SPOTS_PER_PAGE, (page + 1) * SPOTS_PER_PAGE);

  return (
    <DisplayFrame title={title} subtitle="Open spots tonight" mark={mark} stale={!freshness.fresh} testId="lobby-display" footer={footer}>
      {events.length === 0 ? (
        <div className="display__message" data-testid="lobby-empty">
          <p className="display__message-title">Every game is full</p>
          <p className="display__message-text">No open spots tonight right now. When a game is short a player, it shows up here.</p>
        </div>
      ) : (
        <section className="dpanel" aria-label="Open spots">
          <h2 className="dpanel__title">
            Players wanted{pages > 1 && <span className="dpanel__page"> {page + 1}/{pages}</span>}
          </h2>
          <ul key={page} className="dspots" data-testid="lobby-spots">
            {shown.map((e) => (
              <SpotRow key={e.id} event={e} tz={doc.timezone} now={now} />
            ))}
          </ul>
        </section>
      )}
    </DisplayFrame>
  );
}
