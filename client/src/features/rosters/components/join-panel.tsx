// The viewer's own place on the roster: ask to join (message, preferred
// position, commitment), the request's state as it changes live (pending →
// approved / declined), cancel while pending, and leave once on it.

import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import { HOCKEY_POSITIONS, type HockeyPosition, type RosterCommitment, type RosterDocument } from '../../../lib/api-types';
import { relativeTime } from '../../../lib/event-format';
import { POSITION_LABELS } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SelectField, TextAreaField } from '../../../components/ui/field';
import { CheckIcon, ClockIcon, StickIcon } from '../../../components/ui/icons';
import { useCancelRequest, useJoinRequest, useRemovePlayer, useRequestToJoin } from '../api/rosters';
import { isFull, type Standing } from '../model/roster';
import { useMyPositions } from '../../../lib/me';

const MAX_MESSAGE = 1000;

const COMMITMENT_LABELS: Record<RosterCommitment, string> = { FULL_TIME: 'Full-time', SUBSTITUTE: 'Substitute' };

function RequestForm({ doc, again, onSent, onCancel }: { doc: RosterDocument; again: boolean; onSent: (requestId: string) => void; onCancel?: () => void }) {
  const request = useRequestToJoin(doc.id);
  const positions = useMyPositions();
  const preferred = positions.data?.find((p) => p.isPreferred)?.position ?? '';
  const [position, setPosition] = useState<HockeyPosition | '' | null>(null);
  const [commitment, setCommitment] = useState<RosterCommitment>('FULL_TIME');
  const [message, setMessage] = useState('');
  const { errors, formError, run, reset } = useFormErrors();
  const shownPosition = position ?? preferred;

  async function submit(e: FormEvent) {
    e.preventDefault();
    reset();
    await run(async () => {
      const sent = await request.mutateAsync({
        commitmentLevel: commitment,
        ...(shownPosition ? { preferredPosition: shownPosition } : {}),
        ...(message.trim() ? { message: message.trim() } : {}),
      });
      onSent(sent.id);
    });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="join-form">
      {formError && <Alert>{formError}</Alert>}
      <div className="form-grid roster-join__grid">
        <SelectField label="Position" value={shownPosition} onChange={(e) => setPosition(e.target.value as HockeyPosition | '')} error={errors.preferredPosition} data-testid="join-position">
          <option value="">Anywhere</option>
          {HOCKEY_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {POSITION_LABELS[p]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Commitment" value={commitment} onChange={(e) => setCommitment(e.target.value as RosterCommitment)} error={errors.commitmentLevel} data-testid="join-commitment">
          <option value="FULL_TIME">Full-time</option>
          <option value="SUBSTITUTE">Substitute</option>
        </SelectField>
      </div>
      <TextAreaField
        label="Message to the team"
        optional
        rows={3}
        maxLength={MAX_MESSAGE}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        error={errors.message}
        placeholder="Played C-league two seasons, can cover D. Free Tuesdays."
        data-testid="join-message"
      />
      {isFull(doc) && <p className="field__hint">The roster is full right now; the team sees your request if a spot opens.</p>}
      <div className="roster-join__actions">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Not now
          </Button>
        )}
        <Button type="submit" loading={request.isPending} data-testid="send-join-request">
          {again ? 'Ask again' : 'Send request'}
        </Button>
      </div>
    </form>
  );
}

/** The request's details (what I asked for), under its state. */
function RequestDetails({ requestId }: { requestId: string }) {
  const req = useJoinRequest(requestId);
  if (!req.data) return null;
  const r = req.data;
  return (
    <div className="roster-join__details">
      <p className="muted small">
        Sent {relativeTime(r.createdAt)} · {r.preferredPosition ? POSITION_LABELS[r.preferredPosition] : 'Any position'} · {COMMITMENT_LABELS[r.commitmentLevel]}
      </p>
      {r.message && <blockquote className="roster-quote">{r.message}</blockquote>}
    </div>
  );
}

/**
 * Until the document shows a request just sent (the push or re-read is a
 * moment behind the reply), it is pending: the form must not offer itself
 * again meanwhile.
 */
export function withSent(standing: Standing, doc: RosterDocument, sentId: string | null): Standing {
  if (!sentId || doc.requests.some((r) => r.id === sentId)) return standing;
  if (standing.kind === 'none' || standing.kind === 'rejected') return { kind: 'pending', requestId: sentId };
  return standing;
}

/**
 * `addsDirectly`: the viewer manages players, so instead of asking they put
 * themselves (or anyone) on from the players card; no "ask to join" for them.
 */
export function JoinPanel({ doc, standing: fromDoc, myId, addsDirectly = false }: { doc: RosterDocument; standing: Standing; myId: string; addsDirectly?: boolean }) {
  const cancel = useCancelRequest(doc.id);
  const leave = useRemovePlayer(doc.id);
  const [open, setOpen] = useState(false);
  const [sentId, setSentId] = useState<string | null>(null);
  const archived = doc.status === 'ARCHIVED';
  const standing = withSent(fromDoc, doc, sentId);

  if (standing.kind === 'member') {
    const p = standing.player;
    return (
      <Card className="roster-join roster-join--in" data-testid="join-panel">
        <div className="roster-join__status">
          <span className="roster-join__icon" aria-hidden="true">
            <CheckIcon size={22} />
          </span>
          <div>
            <p className="roster-join__title" data-testid="join-status">
              {standing.approved ? 'Approved — you’re on the roster' : 'You’re on the roster'}
            </p>
            <p className="roster-join__sub">
              {p.jerseyNumber !== null ? `#${p.jerseyNumber}` : 'No number yet'} · {p.position ? POSITION_LABELS[p.position] : 'Position not set'} · {COMMITMENT_LABELS[p.commitmentLevel]}
              {p.captain ? ' · Captain' : p.alternateCaptain ? ' · Alternate captain' : ''}
            </p>
          </div>
        </div>
        {!archived && (
          <div className="roster-join__actions">
            {leave.error && <Alert>{errorMessage(leave.error)}</Alert>}
            <ConfirmButton size="sm" variant="ghost" confirmLabel="Tap again to leave" loading={leave.isPending} onConfirm={() => leave.mutate(myId)} data-testid="leave-roster">
              Leave roster
            </ConfirmButton>
          </div>
        )}
      </Card>
    );
  }

  if (archived) return null;

  if (standing.kind === 'pending') {
    return (
      <Card className="roster-join roster-join--waiting" data-testid="join-panel">
        <div className="roster-join__status">
          <span className="roster-join__icon" aria-hidden="true">
            <ClockIcon size={22} />
          </span>
          <div>
            <p className="roster-join__title" data-testid="join-status">
              Request pending
            </p>
            <p className="roster-join__sub">The team’s staff and captains decide. This page updates when they do.</p>
          </div>
        </div>
        <RequestDetails requestId={standing.requestId} />
        {cancel.error && <Alert>{errorMessage(cancel.error)}</Alert>}
        <div className="roster-join__actions">
          <ConfirmButton size="sm" variant="ghost" confirmLabel="Tap again to withdraw" loading={cancel.isPending} onConfirm={() => cancel.mutate(standing.requestId, { onSuccess: () => setSentId(null) })} data-testid="cancel-join-request">
            Cancel request
          </ConfirmButton>
        </div>
      </Card>
    );
  }

  const rejected = standing.kind === 'rejected';
  if (addsDirectly && !rejected) return null;
  return (
    <Card className={`roster-join${rejected ? ' roster-join--out' : ''}`} data-testid="join-panel">
      <div className="roster-join__status">
        <span className="roster-join__icon" aria-hidden="true">
          <StickIcon size={22} />
        </span>
        <div>
          <p className="roster-join__title" data-testid="join-status">
            {rejected ? 'Your request was declined' : `Play for ${doc.teamName}?`}
          </p>
          <p className="roster-join__sub">{rejected ? 'You can ask again — say what changed.' : `Ask to join the ${doc.seasonName} roster. The team’s staff or captains will answer.`}</p>
        </div>
      </div>
      {open ? (
        <RequestForm
          doc={doc}
          again={rejected}
          onSent={(id) => {
            setSentId(id);
            setOpen(false);
          }}
          onCancel={() => setOpen(false)}
        />
      ) : (
        <div className="roster-join__actions">
          <Button onClick={() => setOpen(true)} data-testid="ask-to-join">
            {rejected ? 'Ask again' : 'Ask to join'}
          </Button>
        </div>
      )}
    </Card>
  );
}
