// "Are you in?" — the viewer's standing (live: derived from the pushed
// attendees document, the last reply and the event's viewer block, newest
// wins), a position picker defaulting to their preferred position, and
// one-tap answers sent as WebSocket commands.

import { useEffect, useId, useRef, useState } from 'react';
import { useReveal } from '../../../lib/use-reveal';
import type { HockeyPosition, RinkEvent } from '../../../lib/api-types';
import { POSITION_LABELS } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckIcon, ClockIcon, DollarIcon, XIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';

import { useRsvp } from '../api/live';
import { deriveStanding, ordinal, roleOf, spotsLeft, standingHeadline, waitingForMyPlace, wouldWaitlist } from '../model/standing';
import type { AttendeeCounts, AttendeesDoc } from '../model/types';
import { PositionPicker } from './position-picker';
import { myMoney } from '../model/bill';
import { joinLocked, rulesNotices } from '../model/rules';
import { useRuleClock } from '../model/use-rule-clock';
import { useRinkZone } from '../../../lib/facilities';
import { AlertsOffer } from '../../../components/ui/alerts-offer';
import { useMyPositions } from '../../../lib/me';

/** How long before puck drop an attending player's panel offers "Check in at the rink". */
const CHECK_IN_OPENS_MINUTES = 3 * 60;

export interface RsvpPanelProps {
  event: RinkEvent;
  doc: AttendeesDoc | null;
  userId: string;
  cancelled: boolean;
  over: boolean;
}

function openSpotsText(counts: AttendeeCounts | undefined, position: HockeyPosition): string {
  if (!counts) return 'Pick your position and grab a spot.';
  const role = roleOf(position);
  const noun = role === 'GOALIE' ? 'goalie' : 'skater';
  if (wouldWaitlist(counts, role)) {
    const queued = role === 'GOALIE' ? counts.waitlistGoalies : counts.waitlistSkaters;
    return `${noun === 'goalie' ? 'Goalies' : 'Skaters'} are full. You'd be #${queued + 1} on the waitlist and move in automatically when a spot opens.`;
  }
  const left = spotsLeft(counts, role);
  if (left === null) return `No limit on ${noun}s. Pick your position and you're on the list.`;
  return `${left} ${noun} ${left === 1 ? 'spot' : 'spots'} left.`;
}

/**
 * "Give up your place?": asked before "Can't make it" when someone waits for
 * the place, because it goes to them at once and is not given back. Keeping
 * it is the default (focused; Escape keeps it too).
 */
function GiveUpConfirm({ waiting, role, onKeep, onGiveUp }: { waiting: number; role: 'SKATER' | 'GOALIE'; onKeep: () => void; onGiveUp: () => void }) {
  const id = useId();
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  const noun = role === 'GOALIE' ? 'goalie' : 'skater';
  return (
    <div
      className="rsvp-card__confirm"
      role="alertdialog"
      aria-labelledby={`${id}-q`}
      aria-describedby={`${id}-d`}
      data-testid="rsvp-out-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onKeep();
        }
      }}
    >
      <p className="rsvp-card__confirm-text">
        <strong id={`${id}-q`}>Give up your place?</strong>{' '}
        <span id={`${id}-d`}>
          {waiting === 1 ? `The ${noun} on the waitlist` : `The first of ${waiting} ${noun}s on the waitlist`} gets it right away. If you change your mind, you go to the back of the line.
        </span>
      </p>
      <div className="rsvp-card__confirm-buttons">
        <Button ref={keep} size="lg" block onClick={onKeep} data-testid="rsvp-keep">
          Keep my place
        </Button>
        <Button size="lg" block variant="danger" onClick={onGiveUp} data-testid="rsvp-give-up">
          Give it up
        </Button>
      </div>
    </div>
  );
}

export function RsvpPanel({ event, doc, userId, cancelled, over }: RsvpPanelProps) {
  const { flight, send, retry, drop, dismiss } = useRsvp(event.id);
  const unsentRef = useRef<HTMLDivElement>(null);
  useReveal(unsentRef, flight.phase === 'unsent');
  const positions = useMyPositions();
  const standing = deriveStanding({ userId, doc, reply: flight.reply, viewer: event.viewer, eventVersion: event.version });
  const preferred = positions.data?.find((p) => p.isPreferred)?.position ?? positions.data?.[0]?.position;
  const placed = standing.status === 'ATTENDING' || standing.status === 'WAITLISTED';
  const current = placed ? standing.position : null;
  const [picked, setPicked] = useState<HockeyPosition | null>(null);
  // A role with a limit of 0 has no places: the server refuses a request
  // for it ("no goalie places"), so the panel says so and starts on the other role.
  const limits = doc?.counts ?? { maxSkaters: event.maxSkaters, maxGoalies: event.maxGoalies };
  const noPlaces = (p: HockeyPosition) => (roleOf(p) === 'GOALIE' ? limits.maxGoalies : limits.maxSkaters) === 0;
  const fallback: HockeyPosition = preferred && !noPlaces(preferred) ? preferred : noPlaces('CENTER') ? 'GOALIE' : 'CENTER';
  const position: HockeyPosition = picked ?? current ?? fallback;
  const refused = noPlaces(position) && !(current !== null && roleOf(current) === roleOf(position));
  // Someone waits for my place: "Can't make it" asks first.
  const [confirmingOut, setConfirmingOut] = useState(false);
  const waiting = standing.status === 'ATTENDING' && current && doc ? waitingForMyPlace(doc.counts, roleOf(current)) : 0;
  const decline = () => {
    setConfirmingOut(false);
    setPicked(null);
    void send('DECLINED');
  };

  const busy = flight.phase !== 'idle';
  const closed = cancelled || over;
  const { tone: shownTone, title } = standingHeadline(standing, { cancelled, over });
  const switching = placed && current !== null && position !== current;
  const roleSwitch = switching && current !== null && roleOf(current) !== roleOf(position);

  // The RSVP rules in plain words (docs/pickup-night.md), on the rink's clock, re-read as each moment passes.
  const rules = event.rsvpRules;
  const checkInFrom = new Date(Date.parse(event.startDate) - CHECK_IN_OPENS_MINUTES * 60_000).toISOString();
  const now = useRuleClock([rules?.openToAllAt, rules?.closesAt, checkInFrom]);
  const rinkZone = useRinkZone(event.facilityId);
  const notices = closed
    ? []
    : rulesNotices({
        rules,
        status: standing.status,
        waitlistRank: standing.rank,
        isRegular: Boolean(event.viewer?.isRegular),
        isOrganiser: Boolean(event.viewer?.isOrganiser),
        now,
        rinkZone,
      });
  // After the lock a new request is refused (409); someone already in may still switch or drop out.
  const locked = !placed && joinLocked(rules, event.viewer, now);

  let sub: string;
  if (cancelled) sub = 'This event is cancelled, so answers are closed.';
  else if (over) sub = placed ? 'This event is over. Thanks for coming out.' : 'This event is over.';
  else if (standing.status === 'ATTENDING') sub = current ? `Playing ${POSITION_LABELS[current].toLowerCase()}. See you on the ice.` : 'See you on the ice.';
  else if (standing.status === 'WAITLISTED')
    sub = `${standing.rank ? `${ordinal(standing.rank)} in line` : 'In line'} for a ${current === 'GOALIE' ? 'goalie' : 'skater'} spot. You move in automatically when one opens.`;
  else if (standing.status === 'DECLINED') sub = "You said you can't make it. Changed your mind?";
  else if (standing.status === 'REMOVED') sub = 'An organiser took you off the list. You can ask for a spot again.';
  else sub = openSpotsText(doc?.counts, position);
  if (!closed && locked) sub = 'RSVPs are closed for this one.';
  if (!closed && refused) {
    sub = roleOf(position) === 'GOALIE' ? 'No goalie places at this event: pick a skater position to join.' : 'No skater places at this event: it is for goalies only.';
  }

  // With an ice bill, the bill's own line says what I owe or paid (PlayerBill): not twice.
  const isPaid = standing.status === 'ATTENDING' && !myMoney(event.viewer) ? (event.viewer?.isPaid ?? null) : null;

  return (
    <Card className={`rsvp-card rsvp-card--${shownTone}`} data-testid="rsvp-panel" aria-labelledby="rsvp-title">
      <div className="rsvp-card__status">
        <span className="rsvp-card__icon" aria-hidden="true">
          {shownTone === 'in' ? <CheckIcon size={22} /> : shownTone === 'waiting' ? <ClockIcon size={22} /> : shownTone === 'out' || shownTone === 'closed' ? <XIcon size={22} /> : <span className="rsvp-card__puck" />}
        </span>
        <div className="rsvp-card__text">
          <h2 id="rsvp-title" className="rsvp-card__title" data-testid="rsvp-status" data-status={standing.status ?? 'NONE'} aria-live="polite">
            {title}
          </h2>
          <p className="rsvp-card__sub">{sub}</p>
        </div>
      </div>

      {notices.length > 0 && (
        <ul className="rules-notices" data-testid="rules-notices">
          {notices.map((n) => (
            <li key={n.kind} className={`rules-notice rules-notice--${n.tone}`} data-testid={`rules-notice-${n.kind}`}>
              {n.text}
            </li>
          ))}
        </ul>
      )}

      {standing.status === 'ATTENDING' && !closed && now >= Date.parse(checkInFrom) && (
        <ButtonLink to={`/events/${event.id}/check-in`} variant="secondary" block icon={<CheckIcon size={16} />} data-testid="check-in-link">
          Check in at the rink
        </ButtonLink>
      )}

      {standing.status === 'WAITLISTED' && !closed && (
        <AlertsOffer compact text="Get an alert from your browser when your spot comes up, even with Rinkside in the background." />
      )}

      {isPaid !== null && (
        <p className={`rsvp-card__paid${isPaid ? ' rsvp-card__paid--yes' : ''}`} data-testid="my-payment">
          <DollarIcon size={16} /> {isPaid ? 'Paid. Thanks!' : 'Payment not marked yet.'}
        </p>
      )}

      {!closed && (
        <>
          <div className="rsvp-card__pos">
            <span className="rsvp-card__pos-label">{placed ? 'Your position' : 'I play'}</span>
            <PositionPicker value={position} onChange={setPicked} disabled={busy} label="Position for this event" />
          </div>
          {roleSwitch && (
            <p className="field__hint">
              Switching between skater and goalie is a new request: you go to the back of the {roleOf(position) === 'GOALIE' ? 'goalie' : 'skater'} line if it is full.
            </p>
          )}
          {confirmingOut && waiting > 0 && current ? (
            <GiveUpConfirm waiting={waiting} role={roleOf(current)} onKeep={() => setConfirmingOut(false)} onGiveUp={decline} />
          ) : (
            <div className="rsvp-card__actions">
              {!placed && (
                <Button
                  size="lg"
                  block
                  loading={flight.phase === 'sending' && flight.action === 'ATTENDING'}
                  disabled={busy || refused || locked}
                  onClick={() => {
                    setPicked(null);
                    void send('ATTENDING', position);
                  }}
                  data-testid="rsvp-in"
                >
                  {locked ? 'RSVPs closed' : "I'm in"}
                </Button>
              )}
              {switching && (
                <Button
                  size="lg"
                  block
                  loading={flight.phase === 'sending' && flight.action === 'ATTENDING'}
                  disabled={busy || refused}
                  onClick={() => {
                    setPicked(null);
                    void send('ATTENDING', position);
                  }}
                  data-testid="rsvp-switch"
                >
                  Switch to {POSITION_LABELS[position].toLowerCase()}
                </Button>
              )}
              {standing.status !== 'DECLINED' && (
                <Button
                  variant="secondary"
                  size="lg"
                  block
                  loading={flight.phase === 'sending' && flight.action === 'DECLINED'}
                  disabled={busy}
                  onClick={() => (waiting > 0 ? setConfirmingOut(true) : decline())}
                  data-testid="rsvp-out"
                >
                  {standing.status === 'WAITLISTED' ? 'Leave the waitlist' : "Can't make it"}
                </Button>
              )}
            </div>
          )}
        </>
      )}

      {flight.phase === 'checking' && (
        <p className="rsvp-card__checking" role="status" data-testid="rsvp-checking">
          <Spinner size="sm" /> Checking…
        </p>
      )}
      {flight.phase === 'unsent' && (
        <div data-testid="rsvp-unsent" ref={unsentRef} className="rsvp-card__unsent">
          <Alert
            tone="warning"
            title="Not sent yet"
            action={
              <span className="rsvp-card__unsent-buttons">
                <Button size="sm" onClick={retry} data-testid="rsvp-retry">
                  Retry
                </Button>
                <Button size="sm" variant="ghost" onClick={drop} data-testid="rsvp-drop">
                  Don't send
                </Button>
              </span>
            }
          >
            Rinkside can't be reached right now. Your answer ({flight.action === 'DECLINED' ? "Can't make it" : "I'm in"}) goes out by itself when the connection is back.
          </Alert>
        </div>
      )}
      {flight.error && (
        <Alert action={<Button size="sm" variant="ghost" onClick={dismiss}>Dismiss</Button>}>{flight.error}</Alert>
      )}
      {flight.note && (
        <Alert tone="info" action={<Button size="sm" variant="ghost" onClick={dismiss}>OK</Button>}>
          {flight.note}
        </Alert>
      )}
    </Card>
  );
}
