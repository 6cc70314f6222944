// The "Invite players" card of a roster (for those who decide its join
// requests) and "Invite people" of an event (its organisers), docs/invites.md
// › In the app: a link in one tap — copied, shared, or shown as a QR code
// to scan at the rink — or an invite by email, and the list of invites
// with their uses, expiry and a Revoke. The pages compose it in app/ (a
// feature imports no other), passing their live document's version so the
// uses move as people join.

import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { Invite } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SelectField, TextField } from '../../../components/ui/field';
import { QrCode } from '../../../components/ui/qr-code';
import { useCreateInvite, useInvites, useRevokeInvite } from '../api/invites';
import { DEFAULT_EXPIRY_DAYS, EXPIRY_DAYS, expiryText, inviteLink, STATUS_LABELS, usesText, type InviteTarget } from '../model/invites';
import '../invites.css';

/** How long "Copied" stays on the button. */
const COPIED_MS = 2000;

export interface InviteCardProps {
  target: InviteTarget;
  /** The roster's or the event's name, for the share sheet. */
  name: string;
  /** The roster's seq or the event's version, as the page's live document has it: a new one re-reads the list. */
  version: number | null;
}

export function InviteCard({ target, name, version }: InviteCardProps) {
  const isRoster = target.kind === 'ROSTER';
  const list = useInvites(target, version);
  const create = useCreateInvite(target);
  // The invite whose link is open: the one just made, or one picked from the list.
  const [shown, setShown] = useState<Invite | null>(null);
  const current = shown ? (list.data?.find((i) => i.id === shown.id) ?? shown) : null;

  const makeLink = () => create.mutate({}, { onSuccess: (invite) => setShown(invite) });

  return (
    <Card padded={false} className="invite-card" data-testid="invite-card">
      <div className="card__pad card__pad--header">
        <CardHeader
          title={isRoster ? 'Invite players' : 'Invite people'}
          subtitle={
            isRoster
              ? 'Anyone with the link can join the roster, even without an account yet: they sign up first, then land here.'
              : 'Anyone with the link can sign up and say they’re in, even without an account yet.'
          }
          action={
            <Button size="sm" loading={create.isPending} onClick={makeLink} data-testid="invite-create-link">
              Create invite link
            </Button>
          }
        />
      </div>
      {create.isError && (
        <div className="card__pad">
          <Alert>{errorMessage(create.error)}</Alert>
        </div>
      )}
      {current && current.status === 'ACTIVE' && <LinkPanel invite={current} name={name} onClose={() => setShown(null)} />}
      <EmailInviteForm target={target} onMade={setShown} />
      <InviteList
        invites={list.data}
        loading={list.isPending}
        error={list.isError && !list.data ? list.error : null}
        onRetry={() => void list.refetch()}
        target={target}
        shownId={current?.id ?? null}
        onShow={setShown}
        onRevoked={(id) => setShown((s) => (s?.id === id ? null : s))}
      />
    </Card>
  );
}

/** The link of one invite: the full URL, Copy, Share (where the browser has a share sheet) and its QR code. */
function LinkPanel({ invite, name, onClose }: { invite: Invite; name: string; onClose: () => void }) {
  const link = inviteLink(invite);
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  useEffect(() => {
    if (!copied) return undefined;
    const t = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopyFailed(false);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the link is there to select.
      setCopyFailed(true);
    }
  };
  const share = async () => {
    try {
      await navigator.share({ title: `Join ${name} on Rinkside`, text: `Join ${name} on Rinkside`, url: link });
    } catch {
      // Cancelled, or the sheet refused: nothing to say, the link is still here.
    }
  };

  return (
    <div className="invite-link card__pad" data-testid="invite-link-panel">
      <QrCode text={link} size={160} label={`QR code of the invite link ${link}`} data-testid="invite-qr" />
      <div className="invite-link__text">
        <label className="invite-link__label" htmlFor={`invite-link-${invite.id}`}>
          Invite link
        </label>
        <input id={`invite-link-${invite.id}`} className="input invite-link__input" readOnly value={link} onFocus={(e) => e.currentTarget.select()} data-testid="invite-link" />
        <div className="row invite-link__actions">
          <Button size="sm" onClick={() => void copy()} aria-live="polite" data-testid="invite-copy">
            {copied ? 'Copied' : 'Copy'}
          </Button>
          {canShare && (
            <Button size="sm" variant="secondary" onClick={() => void share()} data-testid="invite-share">
              Share
            </Button>
          )}
          <Button size="sm" variant="ghost" onClick={onClose}>
            Hide
          </Button>
        </div>
        {copyFailed && <p className="field__error">Could not copy here: select the link and copy it.</p>}
        <p className="muted small">
          {usesText(invite)} · {expiryText(invite)}
          {invite.requireApproval ? ' · you approve each one' : ''}
        </p>
      </div>
    </div>
  );
}

const EMAIL_FORM_PLACEMENT = { fields: ['email', 'expiresInDays', 'requireApproval'] };

function EmailInviteForm({ target, onMade }: { target: InviteTarget; onMade: (invite: Invite) => void }) {
  const isRoster = target.kind === 'ROSTER';
  const create = useCreateInvite(target);
  const [email, setEmail] = useState('');
  const [approval, setApproval] = useState(false);
  const [days, setDays] = useState<number>(DEFAULT_EXPIRY_DAYS);
  // A refusal about no field shown here (maxUses, or none at all) is said above the form.
  const { errors, formError, check, fail } = useFormErrors(EMAIL_FORM_PLACEMENT);
  const [made, setMade] = useState<string | null>(null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setMade(null);
    const address = email.trim();
    if (!check(address ? {} : { email: 'Enter their email address.' })) return;
    create.mutate(
      { email: address, expiresInDays: days, ...(isRoster ? { requireApproval: approval } : {}) },
      {
        onSuccess: (invite) => {
          setMade(invite.email ?? address);
          setEmail('');
          onMade(invite);
        },
        onError: fail,
      },
    );
  }

  return (
    <form className="invite-email card__pad" onSubmit={submit} noValidate data-testid="invite-email-form">
      <h3 className="invite-card__subtitle">Invite by email</h3>
      {formError && <Alert>{formError}</Alert>}
      {made && (
        <div data-testid="invite-email-made">
          <Alert tone="success">Invite for {made} made: it is mailed when this Rinkside sends mail, and its link is above to send yourself.</Alert>
        </div>
      )}
      <div className="invite-email__grid">
        <TextField
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          placeholder="player@example.com"
          data-testid="invite-email"
        />
        <SelectField label="Expires in" value={days} onChange={(e) => setDays(Number(e.target.value))} error={errors.expiresInDays} data-testid="invite-expires">
          {EXPIRY_DAYS.map((d) => (
            <option key={d} value={d}>
              {d === 1 ? '1 day' : `${d} days`}
            </option>
          ))}
        </SelectField>
      </div>
      {isRoster && (
        <div>
          <label className={`check${errors.requireApproval ? ' check--invalid' : ''}`}>
            <input
              type="checkbox"
              checked={approval}
              onChange={(e) => setApproval(e.target.checked)}
              aria-invalid={errors.requireApproval ? true : undefined}
              aria-describedby={errors.requireApproval ? 'invite-approval-error' : undefined}
              data-testid="invite-approval"
            />
            <span>
              Ask me to approve
              <span className="muted small invite-email__hint"> Opening it sends a join request instead of joining.</span>
            </span>
          </label>
          {errors.requireApproval && (
            <p className="field__error" id="invite-approval-error" role="alert">
              {errors.requireApproval}
            </p>
          )}
        </div>
      )}
      <div className="form-actions">
        <Button type="submit" variant="secondary" loading={create.isPending} data-testid="invite-email-submit">
          Send invite
        </Button>
      </div>
    </form>
  );
}

function InviteList({
  invites,
  loading,
  error,
  onRetry,
  target,
  shownId,
  onShow,
  onRevoked,
}: {
  invites: Invite[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  target: InviteTarget;
  shownId: string | null;
  onShow: (invite: Invite) => void;
  onRevoked: (id: string) => void;
}) {
  return (
    <div className="invite-list-wrap">
      <h3 className="invite-card__subtitle card__pad">Invites{invites && invites.length > 0 ? ` (${invites.length})` : ''}</h3>
      {error ? (
        <div className="card__pad">
          <Alert action={<button className="link-btn" onClick={onRetry}>Retry</button>}>{errorMessage(error)}</Alert>
        </div>
      ) : loading || !invites ? (
        <p className="muted card__pad">Loading invites…</p>
      ) : invites.length === 0 ? (
        <p className="muted card__pad" data-testid="invites-empty">
          No invites yet.
        </p>
      ) : (
        <ul className="invite-list" data-testid="invite-list">
          {invites.map((invite) => (
            <InviteRow key={invite.id} invite={invite} target={target} shown={invite.id === shownId} onShow={() => onShow(invite)} onRevoked={() => onRevoked(invite.id)} />
          ))}
        </ul>
      )}
    </div>
  );
}

function InviteRow({ invite, target, shown, onShow, onRevoked }: { invite: Invite; target: InviteTarget; shown: boolean; onShow: () => void; onRevoked: () => void }) {
  const revoke = useRevokeInvite(target);
  const active = invite.status === 'ACTIVE';
  return (
    <li className="invite-row" data-testid={`invite-row-${invite.code}`}>
      <div className="invite-row__main">
        <div className="invite-row__top">
          <span className={`invite-badge invite-badge--${invite.status.toLowerCase().replace('_', '-')}`} data-testid="invite-status">
            {STATUS_LABELS[invite.status]}
          </span>
          <span className="invite-row__what">{invite.email ?? 'Link'}</span>
          {invite.requireApproval && <span className="invite-row__tag">Approval</span>}
        </div>
        <span className="invite-row__meta">
          <span className="invite-row__code">{invite.code}</span> · <span data-testid="invite-uses">{usesText(invite)}</span> · <span data-testid="invite-expiry">{expiryText(invite)}</span>
        </span>
        {revoke.isError && <Alert>{errorMessage(revoke.error)}</Alert>}
      </div>
      {active && (
        <div className="invite-row__actions">
          <Button size="sm" variant="ghost" onClick={onShow} aria-pressed={shown} data-testid="invite-show">
            Link
          </Button>
          <ConfirmButton
            size="sm"
            variant="secondary"
            confirmLabel="Revoke?"
            loading={revoke.isPending}
            onConfirm={() => revoke.mutate(invite.code, { onSuccess: onRevoked })}
            data-testid="invite-revoke"
          >
            Revoke
          </ConfirmButton>
        </div>
      )}
    </li>
  );
}
