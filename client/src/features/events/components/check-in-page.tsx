// /events/:id/check-in — check-in at the rink (docs/pickup-night.md ›
// Check-in). A player arrives here from the QR code on the organiser's
// screen (`?code=…`, signed in first if need be): attending, they are
// checked in at once and told so ("You're checked in"); they can also type
// the code. An organiser without a code gets the check-in screen itself,
// large, for a tablet at the rink door, and live.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api';
import { placeRefusal } from '../../../lib/use-form-errors';
import type { RinkEvent } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { CheckIcon } from '../../../components/ui/icons';
import { PageSpinner } from '../../../components/ui/spinner';
import { useEvent } from '../api/events';
import { useLiveAttendees, useRefreshEventOnPush } from '../api/live';
import { pickupKeys, postCheckIn } from '../api/pickup-night';
import { CheckInCard } from './check-in-card';
import '../pickup-night.css';

/** What a typed code becomes: capitals, no spaces or dashes (the code is A–Z and 2–9). */
export function normaliseCode(raw: string): string {
  return raw.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** The organiser's screen at the rink: the code large, the list live. */
function OrganiserScreen({ event }: { event: RinkEvent }) {
  const { doc } = useLiveAttendees(event.id);
  useRefreshEventOnPush(event, doc?.version ?? null, [pickupKeys.checkIns(event.id)]);
  return (
    <div className="check-in-page check-in-page--organiser" data-testid="check-in-page">
      <p className="check-in-page__back">
        <Link to={`/events/${event.id}`}>← {event.title}</Link>
      </p>
      <CheckInCard eventId={event.id} big />
    </div>
  );
}

function PlayerCheckIn({ event, initialCode }: { event: RinkEvent; initialCode: string }) {
  const [code, setCode] = useState(initialCode);
  const checkIn = useMutation({ mutationFn: (c: string) => postCheckIn(event.id, c) });
  const status = event.viewer?.status ?? null;
  const attending = status === 'ATTENDING';
  // The QR code's link checks in by itself, once.
  const sent = useRef(false);
  const { mutate } = checkIn;
  useEffect(() => {
    if (sent.current || !attending || !initialCode) return;
    sent.current = true;
    mutate(initialCode);
  }, [attending, initialCode, mutate]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const c = normaliseCode(code);
    if (c) checkIn.mutate(c);
  };
  // A wrong code is said beside the code; anything else above it.
  const refusal = checkIn.error ? placeRefusal(checkIn.error, { fields: ['code'] }) : null;
  const codeError = refusal?.fields.code ?? null;

  return (
    <div className="check-in-page" data-testid="check-in-page">
      <Card className="check-in-player">
        <p className="check-in-player__event">
          <Link to={`/events/${event.id}`}>{event.title}</Link>
        </p>
        {checkIn.isSuccess ? (
          <div className="check-in-player__done" role="status" data-testid="check-in-done">
            <span className="check-in-player__tick" aria-hidden="true">
              <CheckIcon size={36} />
            </span>
            <h1 className="check-in-player__title">You're checked in</h1>
            <p className="muted">Enjoy the skate.</p>
            <ButtonLink to={`/events/${event.id}`} variant="secondary">
              Back to the event
            </ButtonLink>
          </div>
        ) : !attending ? (
          <div data-testid="check-in-not-attending">
            <h1 className="check-in-player__title">{status === 'WAITLISTED' ? "You're on the waitlist" : "You're not on the list"}</h1>
            <p className="muted">Only people attending check in. {status === 'WAITLISTED' ? 'You move in if a place opens.' : 'Ask the organiser if you are playing tonight.'}</p>
            <ButtonLink to={`/events/${event.id}`} variant="secondary">
              See the event
            </ButtonLink>
          </div>
        ) : (
          <form onSubmit={submit} noValidate data-testid="check-in-form">
            <h1 className="check-in-player__title">Check in</h1>
            <p className="muted">The code is on the organiser's screen at the rink.</p>
            {refusal?.form && <Alert>{refusal.form}</Alert>}
            <TextField
              label="Code"
              value={code}
              onChange={(e) => {
                setCode(normaliseCode(e.target.value));
                checkIn.reset();
              }}
              autoCapitalize="characters"
              autoComplete="off"
              spellCheck={false}
              inputMode="text"
              maxLength={12}
              className="check-in-player__input"
              error={codeError}
              data-testid="check-in-code-input"
            />
            <Button type="submit" size="lg" block loading={checkIn.isPending} disabled={!normaliseCode(code)} data-testid="check-in-submit">
              Check me in
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}

export function CheckInPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const code = normaliseCode(params.get('code') ?? '');
  const query = useEvent(id);
  if (query.isPending) return <PageSpinner label="Loading event" />;
  if (!query.data) {
    return (
      <div className="check-in-page">
        <Alert>{errorMessage(query.error)}</Alert>
      </div>
    );
  }
  const event = query.data;
  if (event.viewer?.isOrganiser && !code) return <OrganiserScreen event={event} />;
  return <PlayerCheckIn key={event.id} event={event} initialCode={code} />;
}
