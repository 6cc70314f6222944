// Check-in at the rink, the organiser's side (docs/pickup-night.md ›
// Check-in): everyone attending, one tap each to check them in or undo it,
// "12 of 16 checked in", and the event's code, large and as a QR code of
// the player's check-in link, which a phone's camera opens. Live: every
// check-in moves the event's version, and the page re-reads this list on
// the `event:ID` push (useRefreshEventOnPush), so two organisers' screens
// and the players' own check-ins all show at once.

import { errorMessage } from '../../../lib/api';
import type { CheckIn } from '../../../lib/api-types';
import { POSITION_LABELS, POSITION_SHORT } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { CheckIcon } from '../../../components/ui/icons';
import { QrCode } from '../../../components/ui/qr-code';
import { Spinner } from '../../../components/ui/spinner';
import { useCheckIns, useToggleCheckIn } from '../api/pickup-night';
import '../pickup-night.css';

/** The link a player's phone opens: the check-in page with the code filled in. */
export function checkInLink(eventId: string, code: string, origin: string = window.location.origin): string {
  return `${origin}/events/${encodeURIComponent(eventId)}/check-in?code=${encodeURIComponent(code)}`;
}

/** "12 of 16 checked in". */
export function checkInCount(checkedIn: number, expected: number): string {
  return `${checkedIn} of ${expected} checked in`;
}

function CheckInRow({ row, pending, onToggle }: { row: CheckIn; pending: boolean; onToggle: (checkedIn: boolean) => void }) {
  const done = row.checkedInAt !== null;
  const at = done && row.checkedInAt ? new Date(row.checkedInAt).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' }) : null;
  return (
    <li>
      <button
        type="button"
        className={`check-in-row${done ? ' check-in-row--done' : ''}`}
        aria-pressed={done}
        aria-label={`${row.displayName}: ${done ? 'checked in. Tap to undo' : 'not checked in. Tap to check in'}`}
        disabled={pending}
        onClick={() => onToggle(!done)}
        data-testid={`check-in-${row.userId}`}
      >
        <Avatar name={row.displayName} size="sm" />
        <span className="check-in-row__name">{row.displayName}</span>
        {row.position && (
          <span className={`pos-badge${row.position === 'GOALIE' ? ' pos-badge--goalie' : ''}`} title={POSITION_LABELS[row.position]} aria-hidden="true">
            {POSITION_SHORT[row.position]}
          </span>
        )}
        <span className="check-in-row__state">
          {pending ? <Spinner size="sm" /> : done ? <CheckIcon size={16} /> : null}
          {done ? (row.checkedInById === row.userId ? `Here · by code${at ? ` ${at}` : ''}` : `Here${at ? ` · ${at}` : ''}`) : 'Check in'}
        </span>
      </button>
    </li>
  );
}

export function CheckInCard({ eventId, big = false }: { eventId: string; /** The rink's screen: the code and QR code as large as they go. */ big?: boolean }) {
  const query = useCheckIns(eventId);
  const toggle = useToggleCheckIn(eventId);
  const list = query.data;
  if (query.isError && !list) return big ? <Alert>{errorMessage(query.error)}</Alert> : null;
  if (!list) {
    return (
      <Card className="event-block check-in-card" data-testid="check-in">
        <div className="center-pad">
          <Spinner label="Loading check-in" />
        </div>
      </Card>
    );
  }
  const link = checkInLink(eventId, list.code);
  const all = list.expected > 0 && list.checkedIn === list.expected;
  return (
    <Card padded={false} className={`event-block check-in-card${big ? ' check-in-card--big' : ''}`} data-testid="check-in">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Check-in at the rink"
          subtitle={
            <span className={all ? 'check-in-card__all' : undefined} data-testid="check-in-count" aria-live="polite">
              {checkInCount(list.checkedIn, list.expected)}
            </span>
          }
          action={
            big ? undefined : (
              <ButtonLink to={`/events/${eventId}/check-in`} size="sm" variant="ghost" data-testid="check-in-screen-link">
                Full screen
              </ButtonLink>
            )
          }
        />
      </div>
      <div className="check-in-card__code card__pad">
        <QrCode text={link} size={big ? 320 : 152} label={`QR code to check in: ${link}`} data-testid="check-in-qr" />
        <div className="check-in-card__code-text">
          <span className="check-in-card__code-label">Players scan it with their phone's camera, or type the code under “Check in” on the event's page.</span>
          <strong className="check-in-card__code-value" data-testid="check-in-code" aria-label={`Code ${list.code.split('').join(' ')}`}>
            {list.code}
          </strong>
        </div>
      </div>
      {toggle.isError && (
        <div className="card__pad">
          <Alert>{errorMessage(toggle.error)}</Alert>
        </div>
      )}
      {list.items.length === 0 ? (
        <p className="card__pad muted small">Nobody is attending yet.</p>
      ) : (
        <ul className="check-in-list" data-testid="check-in-list">
          {list.items.map((row) => (
            <CheckInRow
              key={row.userId}
              row={row}
              pending={toggle.isPending && toggle.variables?.userId === row.userId}
              onToggle={(checkedIn) => toggle.mutate({ userId: row.userId, checkedIn })}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}
