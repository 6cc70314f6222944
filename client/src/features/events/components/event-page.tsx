// /events/:id — the event with its live attendees. The page holds one
// `event:ID` subscription; counts, lists, the viewer's standing and the
// waitlist ranks all derive from the newest attendees document. A change of
// the event itself that reaches my feed (EVENT_UPDATED: a moved league game)
// re-reads it.

import { AddToCalendar } from './add-to-calendar';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { OpenPlaces, RinkEvent } from '../../../lib/api-types';
import { useCurrentUser } from '../../../lib/auth/auth-context';
import { isEventOver, isEventUnderway, openSpotsText } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, StickIcon } from '../../../components/ui/icons';
import { PageSpinner } from '../../../components/ui/spinner';
import { eventKeys, seriesKeys, useEvent, useEventPayments, useMarkPaid } from '../api/events';
import { BillCard, PlayerBill } from './bill-card';
import { SeriesIceCard } from './series-ice';
import { PickupRecord } from './pickup-record';
import { SidesCard } from './sides-card';
import { useSides } from '../api/sides';
import { sidesMade } from '../model/sides';
import { useLiveAttendees, useRefetchOnFeedPush, useRefreshEventOnPush, useRemoveAttendee } from '../api/live';
import { AttendeesCard, WaitlistCard, type OrganiserRowTools } from './attendees';
import { EventDetails } from './event-details';
import { openPlaces } from '../model/standing';
import { EventHero } from './event-hero';
import { OrganiserTools } from './organiser-tools';
import { RinkListing } from './rink-listing';
import { RsvpPanel } from './rsvp-panel';
import { SeriesStrip } from './series-strip';
import { RsvpRulesCard } from './rsvp-rules-card';
import { CheckInCard } from './check-in-card';
import { pickupKeys } from '../api/pickup-night';
import '../events.css';
import '../event-page.css';
import '../pickup-night.css';

/** What an organiser's call for subs needs (the subs feature's control, composed in app/). */
export interface SubsCallProps {
  eventId: string;
  open: OpenPlaces;
}
export type RenderSubsCall = (props: SubsCallProps) => ReactNode;
/** The way into the event's chat (docs/chat.md; the chats feature's, composed in app/). */
export type RenderChat = (eventId: string) => ReactNode;

/** What the invites card needs of the event (the invites feature's, composed in app/). */
export interface EventInvitesProps {
  eventId: string;
  name: string;
  /** The attendees document's version: a use of an invite is an RSVP, and re-reads the invites. */
  version: number | null;
}
export type RenderEventInvites = (props: EventInvitesProps) => ReactNode;

/**
 * Pickups and practices: the events whose players the organiser splits into
 * two sides and shares the ice with (docs/sides-and-bill.md). A game has its
 * teams; a public skate or a watch party has no sides and no ice bill.
 */
export function hasSides(event: RinkEvent): boolean {
  return event.eventType === 'PRACTICE' || event.eventType === 'OTHER';
}

export function EventPage({ renderSubsCall, renderChat, renderInvites }: { renderSubsCall?: RenderSubsCall; renderChat?: RenderChat; renderInvites?: RenderEventInvites }) {
  const { id = '' } = useParams();
  const query = useEvent(id);
  if (query.isPending) return <PageSpinner label="Loading event" />;
  // A failed re-read (the server restarting) keeps the event on screen: the
  // page reads it again when the socket is back (RefreshOnReconnect).
  const notFound = query.isError && query.error instanceof ApiError && query.error.status === 404;
  if (query.isError && (query.data === undefined || notFound)) {
    return (
      <Card>
        <EmptyState
          icon={<CalendarIcon size={28} />}
          title={notFound ? 'This event is not on Rinkside' : 'Could not load this event'}
          action={notFound ? <ButtonLink to="/events">All events</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been deleted by its organiser.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  if (query.data === undefined) return <PageSpinner label="Loading event" />;
  return <EventView key={query.data.id} event={query.data} renderSubsCall={renderSubsCall} renderChat={renderChat} renderInvites={renderInvites} />;
}

function EventView({ event, renderSubsCall, renderChat, renderInvites }: { event: RinkEvent; renderSubsCall?: RenderSubsCall; renderChat?: RenderChat; renderInvites?: RenderEventInvites }) {
  const me = useCurrentUser();
  const { doc, isLive } = useLiveAttendees(event.id);
  const viewer = event.viewer;
  const isOrganiser = Boolean(viewer?.isOrganiser);
  const collects = Boolean(viewer?.canCollectPayments);
  const payments = useEventPayments(event.id, collects);
  const pickup = hasSides(event);
  const readsBill = pickup && (isOrganiser || Boolean(viewer?.canHost));
  // A push (an RSVP, new sides, a bill change, a payment) re-reads the event and what hangs on it.
  useRefreshEventOnPush(event, doc?.version ?? null, [
    ...(collects ? [eventKeys.payments(event.id)] : []),
    ...(pickup ? [eventKeys.sides(event.id)] : []),
    ...(readsBill ? [eventKeys.bill(event.id)] : []),
    ...(event.seriesId ? [seriesKeys.bill(event.seriesId)] : []),
    // Each check-in moves the event's version (docs/pickup-night.md › Check-in).
    ...(isOrganiser ? [pickupKeys.checkIns(event.id)] : []),
  ]);
  useRefetchOnFeedPush(event.id);
  const removal = useRemoveAttendee(event.id);
  const markPaid = useMarkPaid(event.id);
  const [paidError, setPaidError] = useState<string | null>(null);

  const cancelled = Boolean(event.cancelledAt) || doc?.cancelled === true;
  const over = isEventOver(event);

  // Paid states: the REST document's (organisers get everyone's), then the
  // payments list, then the toggle in flight.
  const paid = new Map<string, boolean>();
  for (const a of doc?.attending ?? []) if (a.isPaid !== null) paid.set(a.userId, a.isPaid);
  for (const p of payments.data ?? []) paid.set(p.userId, p.isPaid);
  if (markPaid.isPending && markPaid.variables) paid.set(markPaid.variables.userId, markPaid.variables.isPaid);

  const tools: OrganiserRowTools | undefined = isOrganiser
    ? {
        onRemove: (userId) => void removal.remove(userId),
        removal: removal.pending,
        removalError: removal.error,
        payments: collects
          ? {
              isPaid: (userId) => paid.get(userId) ?? false,
              pendingUserId: markPaid.isPending ? (markPaid.variables?.userId ?? null) : null,
              onToggle: (userId, isPaid) => {
                setPaidError(null);
                markPaid.mutate({ userId, isPaid }, { onError: (err) => setPaidError(errorMessage(err)) });
              },
              error: paidError,
            }
          : undefined,
      }
    : undefined;

  // A role short of players before puck drop: everyone sees it, organisers can call for subs.
  const open = doc ? openPlaces(doc.counts) : null;
  const openText = open && !cancelled && !over && !isEventUnderway(event) ? openSpotsText(open) : null;

  const myIsPaid = doc?.attending.some((a) => a.userId === me.id) ? (viewer?.isPaid ?? null) : null;
  const showSides = pickup && !cancelled && (doc?.attending.length ?? 0) > 0;
  // The chat's members (docs/chat.md): those in or waitlisted (live from the document, else my RSVP as read) and the organisers.
  const listed = doc ? doc.attending.some((a) => a.userId === me.id) || doc.waitlist.some((w) => w.userId === me.id) : viewer?.status === 'ATTENDING' || viewer?.status === 'WAITLISTED';
  const inChat = isOrganiser || Boolean(viewer?.canHost) || listed;
  // Once the organiser has made sides, they are the split: the list stops grouping by its own rule.
  const sides = useSides(event.id, showSides);
  const groupConfig = sides.data && sidesMade(sides.data) ? null : event.groupConfig;

  return (
    <div className="event-page" data-testid="event-page">
      <EventHero event={event} doc={doc} cancelled={cancelled} isLive={isLive} />
      {!cancelled && !over && <AddToCalendar eventId={event.id} title={event.title} />}
      {cancelled && (
        <div data-testid="cancelled-banner">
          <Alert tone="warning" title={event.cancelReason ? `Cancelled: ${event.cancelReason}` : 'This event is cancelled'}>
            {event.cancelledAt
              ? `The organiser called it off on ${new Date(event.cancelledAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}. Nobody needs to show up.`
              : 'The organiser called it off. Nobody needs to show up.'}
          </Alert>
        </div>
      )}
      {openText && open && (
        <div className="spots-open" data-testid="spots-open">
          <span className="spots-open__icon" aria-hidden="true">
            <StickIcon size={20} />
          </span>
          <p className="spots-open__text" aria-live="polite">
            <strong data-testid="spots-open-text">{openText}</strong>
            <span className="spots-open__sub">{isOrganiser ? 'Players free to sub at the right level see it in their matches and can take it in one tap.' : "Play? Say you're in and it's yours."}</span>
          </p>
          {isOrganiser && renderSubsCall && <div className="spots-open__action">{renderSubsCall({ eventId: event.id, open })}</div>}
        </div>
      )}
      <div className="event-layout">
        <div className="event-layout__side">
          <RsvpPanel event={event} doc={doc} userId={me.id} cancelled={cancelled} over={over} />
          {inChat && renderChat && <div className="event-chat">{renderChat(event.id)}</div>}
          {!isOrganiser && <PlayerBill event={event} />}
          {event.seriesId && <SeriesStrip event={event} />}
          <EventDetails event={event} />
          {viewer?.canHost && event.facilityId && <RinkListing event={event} />}
          {isOrganiser && !cancelled && !over && <RsvpRulesCard event={event} />}
          {isOrganiser && <OrganiserTools event={event} cancelled={cancelled} counts={doc?.counts ?? null} />}
        </div>
        <div className="event-layout__main">
          {showSides && <SidesCard eventId={event.id} isOrganiser={isOrganiser} myId={me.id} mySide={viewer?.side ?? null} />}
          <AttendeesCard doc={doc} groupConfig={groupConfig} myId={me.id} myIsPaid={myIsPaid} tools={tools} isLive={isLive} />
          <WaitlistCard doc={doc} myId={me.id} tools={tools} />
          {isOrganiser && !cancelled && (doc?.attending.length ?? 0) > 0 && <CheckInCard eventId={event.id} />}
          {isOrganiser && !cancelled && !over && renderInvites?.({ eventId: event.id, name: event.title, version: doc?.version ?? null })}
          {readsBill && <BillCard event={event} />}
          {event.seriesId && pickup && <SeriesIceCard event={event} />}
          <PickupRecord event={event} />
        </div>
      </div>
    </div>
  );
}
