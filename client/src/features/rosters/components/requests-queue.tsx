// The deciders' queue (team staff and roster captains): pending requests
// with their messages, approve or decline. It re-reads itself whenever the
// live document's pending set changes, so new requests appear as they come.

import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api';
import type { JoinRequest, RosterDocument } from '../../../lib/api-types';
import { relativeTime } from '../../../lib/event-format';
import { displayName, POSITION_LABELS } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { useDecideRequest, usePendingRequests } from '../api/rosters';
import { isFull, pendingCount, pendingKey } from '../model/roster';

function decisionError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'roster_full') return `${err.message}. Raise the limit or take someone off first.`;
  if (err instanceof ApiError && err.code === 'not_pending') return 'Someone already answered this request, or it was withdrawn.';
  return errorMessage(err);
}

function RequestRow({ req, rosterId, full }: { req: JoinRequest; rosterId: string; full: boolean }) {
  const decide = useDecideRequest(rosterId);
  const [error, setError] = useState<string | null>(null);
  const name = displayName(req.user);
  const run = (approve: boolean) => {
    setError(null);
    decide.mutate({ requestId: req.id, approve }, { onError: (err) => setError(decisionError(err)) });
  };
  const busy = decide.isPending ? (decide.variables?.approve ? 'approve' : 'reject') : null;
  return (
    <li className="roster-request" data-testid={`request-${req.user.username ?? req.userId}`}>
      <div className="roster-request__head">
        <Avatar name={name} src={req.user.profileImage} size="sm" />
        <div className="roster-request__who">
          <Link to={`/users/${req.userId}`} className="roster-request__name">
            {name}
          </Link>
          <span className="roster-request__meta">
            {req.preferredPosition ? POSITION_LABELS[req.preferredPosition] : 'Any position'} · {req.commitmentLevel === 'SUBSTITUTE' ? 'Substitute' : 'Full-time'} · {relativeTime(req.createdAt)}
          </span>
        </div>
      </div>
      {req.message && <blockquote className="roster-quote">{req.message}</blockquote>}
      {error && <Alert>{error}</Alert>}
      <div className="roster-request__actions">
        <ConfirmButton size="sm" variant="ghost" confirmLabel="Tap again to decline" loading={busy === 'reject'} disabled={busy === 'approve'} onConfirm={() => run(false)} data-testid="reject-request">
          Decline
        </ConfirmButton>
        <Button size="sm" loading={busy === 'approve'} disabled={busy === 'reject'} onClick={() => run(true)} title={full ? 'The roster is full' : undefined} data-testid="approve-request">
          Approve
        </Button>
      </div>
    </li>
  );
}

export function RequestsQueue({ doc }: { doc: RosterDocument }) {
  const count = pendingCount(doc);
  const queue = usePendingRequests(doc.id, pendingKey(doc), count > 0);
  const full = isFull(doc);
  // What the server listed, minus anything the live document says is decided.
  const stillPending = new Set(doc.requests.filter((r) => r.status === 'PENDING').map((r) => r.id));
  const items = (queue.data?.items ?? []).filter((r) => stillPending.has(r.id));

  return (
    <Card padded={false} className="roster-queue" data-testid="requests-queue">
      <div className="card__pad card__pad--header">
        <CardHeader
          title={
            <span className="roster-queue__title">
              Join requests
              {count > 0 && (
                <span className="roster-count" data-testid="pending-count">
                  {count}
                </span>
              )}
            </span>
          }
          subtitle={count > 0 ? 'Approving puts them on the roster with the position and commitment they asked for.' : 'New requests show up here as they arrive.'}
        />
      </div>
      {count > 0 && full && (
        <div className="card__pad roster-card-note">
          <Alert tone="warning">The roster is full ({doc.maxMembers}). Approving needs a free spot.</Alert>
        </div>
      )}
      {count === 0 ? (
        <p className="muted card__pad roster-queue__empty">No one is waiting.</p>
      ) : queue.isError ? (
        <div className="card__pad">
          <Alert action={<button className="link-btn" onClick={() => void queue.refetch()}>Retry</button>}>{errorMessage(queue.error)}</Alert>
        </div>
      ) : items.length === 0 ? (
        <p className="muted card__pad roster-queue__empty">Loading requests…</p>
      ) : (
        <ul className="roster-requests">
          {items.map((r) => (
            <RequestRow key={r.id} req={r} rosterId={doc.id} full={full} />
          ))}
        </ul>
      )}
    </Card>
  );
}
