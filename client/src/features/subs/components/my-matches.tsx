// My matches, live: the `matches` topic's snapshot with every change folded
// in as it happens (a goalie who says he is free sees tonight's open goalie
// spots appear without reloading). An open spot can be taken in one tap;
// the outcome stays on screen after the match itself drops away.

import { useSetAtom } from 'jotai';
import { Link } from 'react-router';
import type { Match } from '../../../lib/api-types';
import { eventWhen } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckIcon, ClockIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useMatches, useTakeSpot } from '../api/matches';
import { dismissClaimAtom, type SpotClaim } from '../atoms';
import { STATUS_TYPE_LABELS, statusName } from '../model/describe';
import { EventStrip, LevelChip, PositionChips, StatusWho, TypeChip, Until } from './status-bits';

export function MyMatches() {
  const { matches, isLive } = useMatches();
  const { claims, take } = useTakeSpot();
  const shown = new Set(matches?.map((m) => m.event?.id).filter(Boolean));
  // Claims whose match has dropped (the spot is mine now, or I am in line): still shown, first.
  const settled = Object.values(claims).filter((c) => !shown.has(c.eventId));

  return (
    <Card className="subs-block subs-block--matches" data-testid="my-matches" aria-labelledby="my-matches-title">
      <header className="card__header">
        <div>
          <h2 className="card__title" id="my-matches-title">
            {isLive && <span className="subs-live" aria-hidden="true" />}
            My matches
          </h2>
          <p className="card__subtitle">Open spots and people that fit what you posted, at your level.</p>
        </div>
      </header>
      {matches === null ? (
        <div className="center-pad">
          <Spinner label="Loading matches" />
        </div>
      ) : matches.length === 0 && settled.length === 0 ? (
        <p className="my-matches__empty" data-testid="no-matches">
          Nothing yet. Post a status and matches show up here the moment they exist: a game short a goalie, a team looking for someone like you.
        </p>
      ) : (
        <ul className="my-matches__list" data-testid="matches-list" aria-live="polite">
          {settled.map((c) => (
            <ClaimCard key={`claim-${c.eventId}`} claim={c} onRetry={() => void take(c.match)} />
          ))}
          {matches.map((m) => (
            <MatchCard key={m.id} match={m} claim={m.event ? claims[m.event.id] : undefined} onTake={() => void take(m)} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** "Matches your Available to sub" under each match. */
function MineLine({ match }: { match: Match }) {
  return (
    <span className="match-card__mine">
      Matches your <strong>{STATUS_TYPE_LABELS[match.mine.type].toLowerCase()}</strong>
    </span>
  );
}

function MatchCard({ match, claim, onTake }: { match: Match; claim: SpotClaim | undefined; onTake: () => void }) {
  const { event, theirs } = match;
  const canTake = match.mine.type === 'AVAILABLE_TO_SUB' && event !== null;
  const openSpot = theirs === null && event !== null;
  const asks = event?.asks.filter((a) => a.message) ?? [];
  return (
    <li className={`match-card${openSpot ? ' match-card--spot' : ''}`} data-testid={`match-${match.id}`} data-event-id={event?.id}>
      {openSpot && event ? (
        <>
          <div className="match-card__head">
            <span className="type-chip type-chip--spot">Open spot</span>
            <LevelChip level={event.level} />
          </div>
          <EventStrip event={event} />
          {asks.map((a) => (
            <p key={a.id} className="match-card__ask">
              <strong>{statusName(a)}:</strong> {a.message}
            </p>
          ))}
        </>
      ) : theirs ? (
        <>
          <StatusWho status={theirs} />
          <div className="chip-row">
            <TypeChip type={theirs.type} />
            <LevelChip level={theirs.level} />
            <PositionChips positions={theirs.positions} />
          </div>
          {theirs.message && <p className="status-card__message">{theirs.message}</p>}
          {event && <EventStrip event={event} />}
        </>
      ) : null}
      <div className="match-card__foot">
        <MineLine match={match} />
        {theirs && !event && <Until expiresAt={theirs.expiresAt} />}
      </div>
      {canTake && <TakeSpot claim={claim} onTake={onTake} />}
      {!canTake && theirs && (
        <div className="match-card__actions">
          <ButtonLink size="sm" to={theirs.entityType === 'TEAM' && theirs.team ? `/teams/${theirs.team.id}` : `/users/${theirs.userId}`} data-testid="match-contact">
            {theirs.entityType === 'TEAM' ? 'View team' : 'View profile'}
          </ButtonLink>
        </div>
      )}
    </li>
  );
}

function TakeSpot({ claim, onTake }: { claim: SpotClaim | undefined; onTake: () => void }) {
  if (claim && claim.phase !== 'failed') return <ClaimOutcome claim={claim} />;
  return (
    <div className="match-card__actions">
      {claim?.phase === 'failed' && <Alert>{claim.error}</Alert>}
      <Button block size="lg" onClick={onTake} data-testid="take-spot">
        Take the spot
      </Button>
    </div>
  );
}

/** The answer to my tap: in, in line, or still checking. */
function ClaimOutcome({ claim }: { claim: SpotClaim }) {
  const dismiss = useSetAtom(dismissClaimAtom);
  if (claim.phase === 'sending' || claim.phase === 'checking') {
    return (
      <p className="spot-outcome spot-outcome--pending" role="status" data-testid="spot-outcome" data-status="PENDING">
        <Spinner size="sm" /> {claim.phase === 'sending' ? 'Taking the spot…' : 'Checking whether you got it…'}
      </p>
    );
  }
  const reply = claim.reply;
  if (!reply) return null;
  const event = claim.match.event;
  const inNow = reply.status === 'ATTENDING';
  return (
    <div className={`spot-outcome ${inNow ? 'spot-outcome--in' : 'spot-outcome--waiting'}`} role="status" data-testid="spot-outcome" data-status={reply.status}>
      <span className="spot-outcome__icon" aria-hidden="true">
        {inNow ? <CheckIcon size={20} /> : <ClockIcon size={20} />}
      </span>
      <div className="spot-outcome__text">
        <strong className="spot-outcome__title" data-testid="spot-outcome-title">
          {inNow ? "You're in" : `Waitlisted #${reply.waitlistRank ?? 1} — someone got there first`}
        </strong>
        <span className="spot-outcome__sub">
          {inNow
            ? `See you on the ice${event ? `: ${event.title}, ${eventWhen({ startDate: event.startDate, endDate: null })}` : ''}.`
            : 'You move in automatically if a spot opens.'}
        </span>
      </div>
      <div className="spot-outcome__actions">
        {event && (
          <Link to={`/events/${event.id}`} className="spot-outcome__link">
            Open the event
          </Link>
        )}
        <Button size="sm" variant="ghost" onClick={() => dismiss(claim.eventId)} data-testid="dismiss-outcome">
          OK
        </Button>
      </div>
    </div>
  );
}

/** A spot I tapped whose match has since dropped away. */
function ClaimCard({ claim, onRetry }: { claim: SpotClaim; onRetry: () => void }) {
  const event = claim.match.event;
  return (
    <li className="match-card match-card--claimed" data-testid={`claim-${claim.eventId}`}>
      {event && <EventStrip event={event} showOpen={false} />}
      {claim.phase === 'failed' ? (
        <div className="match-card__actions">
          <Alert>{claim.error}</Alert>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : (
        <ClaimOutcome claim={claim} />
      )}
    </li>
  );
}
