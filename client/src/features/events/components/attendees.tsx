// Who's going (split into the event's groups) and who's waiting (ranked per
// role), with the organiser's per-person tools: paid/unpaid and remove.

import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router';
import type { GroupConfig } from '../../../lib/api-types';
import { POSITION_LABELS, POSITION_SHORT } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { PeopleIcon, XIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import type { RemovalState } from '../api/live';
import { assignGroups } from '../model/groups';
import { countsLine, overLimitNotes, waitlistByRole } from '../model/standing';
import type { AttendeesDoc, AttendingEntry, WaitlistEntry } from '../model/types';

export interface OrganiserRowTools {
  /** Remove a person (attending or waitlisted). */
  onRemove: (userId: string) => void;
  removal: RemovalState;
  removalError: string | null;
  /** Present only when the viewer may mark payments. */
  payments?: {
    isPaid: (userId: string) => boolean;
    pendingUserId: string | null;
    onToggle: (userId: string, isPaid: boolean) => void;
    error: string | null;
  };
}

function PersonRow({
  userId,
  displayName,
  position,
  lead,
  isMe,
  extra,
  tools,
  testId,
}: {
  userId: string;
  displayName: string;
  position: AttendingEntry['position'];
  lead?: ReactNode;
  isMe: boolean;
  extra?: ReactNode;
  tools?: ReactNode;
  testId: string;
}) {
  return (
    <li className={`person-row${isMe ? ' person-row--me' : ''}`} data-testid={testId}>
      {lead}
      <Avatar name={displayName} size="sm" />
      <span className="person-row__text">
        <Link to={`/users/${userId}`} className="person-row__name">
          {displayName}
        </Link>
        {isMe && <span className="you-badge">You</span>}
      </span>
      <span className={`pos-badge${position === 'GOALIE' ? ' pos-badge--goalie' : ''}`} title={POSITION_LABELS[position]}>
        <span aria-hidden="true">{POSITION_SHORT[position]}</span>
        <span className="sr-only">{POSITION_LABELS[position]}</span>
      </span>
      {extra}
      {tools && <span className="person-row__tools">{tools}</span>}
    </li>
  );
}

function RemoveTool({ userId, name, tools }: { userId: string; name: string; tools: OrganiserRowTools }) {
  const busy = tools.removal?.userId === userId;
  if (busy) {
    return (
      <span className="person-row__busy" role="status">
        <Spinner size="sm" /> {tools.removal?.phase === 'checking' ? 'Checking…' : 'Removing…'}
      </span>
    );
  }
  return (
    <ConfirmButton
      size="sm"
      variant="ghost"
      className="remove-btn"
      confirmLabel="Remove?"
      onConfirm={() => tools.onRemove(userId)}
      aria-label={`Remove ${name}`}
      title={`Remove ${name}`}
      data-testid={`remove-${userId}`}
    >
      <XIcon size={16} />
    </ConfirmButton>
  );
}

function PaidTool({ userId, name, payments }: { userId: string; name: string; payments: NonNullable<OrganiserRowTools['payments']> }) {
  const paid = payments.isPaid(userId);
  const pending = payments.pendingUserId === userId;
  return (
    <button
      type="button"
      className={`paid-toggle${paid ? ' paid-toggle--paid' : ''}`}
      aria-pressed={paid}
      aria-label={`${name}: ${paid ? 'paid' : 'not paid'}. Mark as ${paid ? 'not paid' : 'paid'}`}
      disabled={pending}
      onClick={() => payments.onToggle(userId, !paid)}
      data-testid={`paid-${userId}`}
    >
      {pending ? <Spinner size="sm" /> : null}
      {paid ? 'Paid' : 'Unpaid'}
    </button>
  );
}

export function AttendeesCard({
  doc,
  groupConfig,
  myId,
  myIsPaid,
  tools,
  isLive,
}: {
  doc: AttendeesDoc | null;
  groupConfig: GroupConfig | null;
  myId: string;
  /** Your own payment state (shown on your row). */
  myIsPaid: boolean | null;
  tools?: OrganiserRowTools;
  isLive: boolean;
}) {
  const groups = doc ? assignGroups(doc.attending, groupConfig) : [];
  const total = doc?.attending.length ?? 0;
  return (
    <Card padded={false} className="event-block event-block--attendees" data-testid="attendees">
      <div className="card__pad card__pad--header">
        <CardHeader
          title={
            <span className="with-live">
              Who's going {isLive && <span className="live-dot" title="Updating live" aria-label="Updating live" />}
            </span>
          }
          subtitle={doc ? countsLine(doc.counts) : 'Loading…'}
        />
      </div>
      {doc && overLimitNotes(doc.counts).length > 0 && (
        <p className="card__pad over-limit-note" data-testid="over-limit">
          {overLimitNotes(doc.counts).join(' ')}
        </p>
      )}
      {tools?.removalError && (
        <div className="card__pad">
          <Alert>{tools.removalError}</Alert>
        </div>
      )}
      {tools?.payments?.error && (
        <div className="card__pad">
          <Alert>{tools.payments.error}</Alert>
        </div>
      )}
      {!doc ? (
        <div className="center-pad">
          <Spinner label="Loading attendees" />
        </div>
      ) : total === 0 ? (
        <div className="empty-line">
          <PeopleIcon size={18} /> Nobody yet. Be the first on the ice.
        </div>
      ) : (
        <div className={`groups groups--${groups.length}`}>
          {groups.map((g, i) => (
            <section key={g.group?.name ?? i} className="group" style={g.group ? ({ '--group': g.group.color } as CSSProperties) : undefined} data-testid={`group-${i}`}>
              {g.group && (
                <h3 className="group__head">
                  <span className="group__swatch" aria-hidden="true" />
                  {g.group.name}
                  <span className="group__count">{g.members.length}</span>
                </h3>
              )}
              {g.members.length === 0 && <p className="group__empty">Nobody yet</p>}
              <ul className="people">
                {g.members.map((a) => {
                  const isMe = a.userId === myId;
                  const paidTool = tools?.payments ? <PaidTool userId={a.userId} name={a.displayName} payments={tools.payments} /> : null;
                  // Your own row says "Paid" once you are; "unpaid" would be noise at a free skate.
                  const myPaid = !tools?.payments && isMe && myIsPaid ? <span className="paid-chip paid-chip--paid">Paid</span> : null;
                  return (
                    <PersonRow
                      key={a.userId}
                      userId={a.userId}
                      displayName={a.displayName}
                      position={a.position}
                      isMe={isMe}
                      extra={paidTool ?? myPaid}
                      tools={tools ? <RemoveTool userId={a.userId} name={a.displayName} tools={tools} /> : undefined}
                      testId={`attendee-${a.userId}`}
                    />
                  );
                })}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Card>
  );
}

function WaitlistSection({ title, entries, myId, tools }: { title: string; entries: WaitlistEntry[]; myId: string; tools?: OrganiserRowTools }) {
  if (entries.length === 0) return null;
  return (
    <section className="group">
      <h3 className="group__head group__head--plain">
        {title}
        <span className="group__count">{entries.length}</span>
      </h3>
      <ol className="people">
        {entries.map((w) => (
          <PersonRow
            key={w.userId}
            userId={w.userId}
            displayName={w.displayName}
            position={w.position}
            isMe={w.userId === myId}
            lead={<span className="rank" aria-label={`Rank ${w.rank}`}>#{w.rank}</span>}
            extra={
              w.regular ? (
                <span className="regular-mark" title="A regular: goes first while the places are the regulars'" data-testid={`regular-${w.userId}`}>
                  Regular
                </span>
              ) : undefined
            }
            tools={tools ? <RemoveTool userId={w.userId} name={w.displayName} tools={tools} /> : undefined}
            testId={`waiting-${w.userId}`}
          />
        ))}
      </ol>
    </section>
  );
}

export function WaitlistCard({ doc, myId, tools }: { doc: AttendeesDoc | null; myId: string; tools?: OrganiserRowTools }) {
  if (!doc || doc.waitlist.length === 0) return null;
  const { skaters, goalies } = waitlistByRole(doc.waitlist);
  return (
    <Card padded={false} className="event-block event-block--waitlist" data-testid="waitlist">
      <div className="card__pad card__pad--header">
        <CardHeader title="Waitlist" subtitle={`${doc.waitlist.length} waiting · first in line moves in as soon as a spot opens`} />
      </div>
      <div className="groups groups--waitlist">
        <WaitlistSection title="Skaters" entries={skaters} myId={myId} tools={tools} />
        <WaitlistSection title="Goalies" entries={goalies} myId={myId} tools={tools} />
      </div>
    </Card>
  );
}
