// Who runs a facility or a team: the owner and the managers. The owner adds
// and removes managers and can hand the whole thing over (staying on as a
// manager); a manager can step down. Shared by the facility and team pages,
// which pass their own calls in.

import { useState, type FormEvent } from 'react';
import { placeRefusal } from '../../lib/use-form-errors';
import type { StaffRole, UserSummary } from '../../lib/api-types';
import { displayName, handle } from '../../lib/format';
import { Alert } from './alert';
import { Avatar } from './avatar';
import { Button } from './button';
import { Card, CardHeader } from './card';
import { ConfirmButton } from './confirm-button';
import { PlusIcon } from './icons';
import { ListRow } from './list-row';
import { PersonPicker } from './person-picker';
import './staff-card.css';

export interface StaffCardProps {
  /** "facility" or "team", for the sentences. */
  noun: string;
  ownerId: string;
  /** The owner's profile, once loaded. */
  owner: UserSummary | null;
  managers: UserSummary[];
  viewerRole: StaffRole | null;
  myId: string;
  onAddManager: (userId: string) => Promise<unknown>;
  onRemoveManager: (userId: string) => Promise<unknown>;
  onTransfer: (userId: string) => Promise<unknown>;
}

/** The picked person's refusal (not a user, already a manager), else what went wrong. */
function failure(err: unknown): string {
  const placed = placeRefusal(err, { fields: ['userId'] });
  return placed.fields.userId ?? placed.form ?? '';
}

export function StaffCard({ noun, ownerId, owner, managers, viewerRole, myId, onAddManager, onRemoveManager, onTransfer }: StaffCardProps) {
  const isOwner = viewerRole === 'OWNER';
  const [open, setOpen] = useState<'add' | 'transfer' | null>(null);
  const [pick, setPick] = useState<UserSummary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  function toggle(which: 'add' | 'transfer') {
    setOpen((o) => (o === which ? null : which));
    setPick(null);
    setPickError(null);
    setNote(null);
  }

  async function run(key: string, fn: () => Promise<unknown>, onError: (msg: string) => void): Promise<boolean> {
    setBusy(key);
    try {
      await fn();
      return true;
    } catch (err) {
      onError(failure(err));
      return false;
    } finally {
      setBusy(null);
    }
  }

  async function submitAdd(e: FormEvent) {
    e.preventDefault();
    if (!pick) {
      setPickError('Pick someone first.');
      return;
    }
    setPickError(null);
    const who = displayName(pick);
    if (await run('add', () => onAddManager(pick.id), setPickError)) {
      setPick(null);
      setNote(`${who} can now help run this ${noun}.`);
    }
  }

  async function transfer() {
    if (!pick) {
      setPickError('Pick the new owner first.');
      return;
    }
    setPickError(null);
    const who = displayName(pick);
    if (await run('transfer', () => onTransfer(pick.id), setPickError)) {
      setPick(null);
      setOpen(null);
      setNote(`${who} owns this ${noun} now. You stay on as a manager.`);
    }
  }

  const roleChip = (role: StaffRole) => <span className={`staff-role staff-role--${role.toLowerCase()}`}>{role === 'OWNER' ? 'Owner' : 'Manager'}</span>;

  return (
    <Card padded={false} data-testid="staff-card">
      <div className="card__pad card__pad--header">
        <CardHeader title="Staff" subtitle={`The owner and managers run this ${noun}.`} />
      </div>
      {note && (
        <div className="card__pad staff-card__note">
          <Alert tone="success">{note}</Alert>
        </div>
      )}
      {rowError && (
        <div className="card__pad">
          <Alert>{rowError}</Alert>
        </div>
      )}
      <ul className="list list--compact" data-testid="staff-list">
        <ListRow
          to={`/users/${ownerId}`}
          testId="staff-owner"
          media={<Avatar name={owner ? displayName(owner) : 'Owner'} src={owner?.profileImage} size="sm" />}
          title={
            <>
              {owner ? displayName(owner) : 'Loading…'}
              {ownerId === myId && <span className="you-badge">You</span>}
            </>
          }
          subtitle={[owner ? handle(owner) : null, 'Owner'].filter(Boolean).join(' · ')}
          action={roleChip('OWNER')}
        />
        {managers.map((m) => {
          const self = m.id === myId;
          const canRemove = isOwner || (self && viewerRole === 'MANAGER');
          return (
            <ListRow
              key={m.id}
              to={`/users/${m.id}`}
              testId={`staff-manager-${m.username ?? m.id}`}
              media={<Avatar name={displayName(m)} src={m.profileImage} size="sm" />}
              title={
                <>
                  {displayName(m)}
                  {self && <span className="you-badge">You</span>}
                </>
              }
              subtitle={[handle(m), 'Manager'].filter(Boolean).join(' · ')}
              action={
                canRemove ? (
                    <ConfirmButton
                      size="sm"
                      variant="ghost"
                      confirmLabel={self ? 'Tap again to step down' : 'Tap again to remove'}
                      loading={busy === `remove:${m.id}`}
                      onConfirm={() => {
                        setRowError(null);
                        void run(`remove:${m.id}`, () => onRemoveManager(m.id), setRowError);
                      }}
                      aria-label={self ? 'Step down as manager' : `Remove ${displayName(m)} as manager`}
                      data-testid={`remove-manager-${m.username ?? m.id}`}
                    >
                      {self ? 'Step down' : 'Remove'}
                    </ConfirmButton>
                ) : undefined
              }
            />
          );
        })}
      </ul>
      {managers.length === 0 && <p className="muted small card__pad staff-card__empty">No managers yet{isOwner ? ' — add someone to share the work.' : '.'}</p>}
      {open === 'add' && (
        <form className="staff-card__form card__pad" onSubmit={submitAdd} noValidate data-testid="add-manager-form">
          <PersonPicker
            label="New manager"
            value={pick}
            onChange={(p) => {
              setPick(p);
              setPickError(null);
            }}
            exclude={[ownerId, ...managers.map((m) => m.id)]}
            excludedNote="Everyone who matches already runs it"
            error={pickError}
            hint={`Managers can edit the ${noun}${noun === 'facility' ? ' and run its seasons' : ' and manage its rosters'}.`}
            data-testid="manager-picker"
          />
          <div className="staff-card__form-actions">
            <Button variant="ghost" size="sm" onClick={() => toggle('add')}>
              Close
            </Button>
            <Button type="submit" size="sm" loading={busy === 'add'} data-testid="add-manager">
              Add manager
            </Button>
          </div>
        </form>
      )}
      {open === 'transfer' && (
        <div className="staff-card__form card__pad" data-testid="transfer-form">
          <PersonPicker
            label="New owner"
            value={pick}
            onChange={(p) => {
              setPick(p);
              setPickError(null);
            }}
            exclude={[myId]}
            error={pickError}
            hint={`They get full control of the ${noun}, including deleting it. You stay on as a manager.`}
            data-testid="owner-picker"
          />
          <div className="staff-card__form-actions">
            <Button variant="ghost" size="sm" onClick={() => toggle('transfer')}>
              Close
            </Button>
            <ConfirmButton size="sm" variant="primary" confirmLabel="Tap again to hand it over" loading={busy === 'transfer'} disabled={!pick} onConfirm={() => void transfer()} data-testid="transfer-ownership">
              Transfer ownership
            </ConfirmButton>
          </div>
        </div>
      )}
      {isOwner && !open && (
        <div className="card__pad staff-card__tools">
          <Button size="sm" variant={open === 'add' ? 'primary' : 'secondary'} icon={<PlusIcon size={16} />} onClick={() => toggle('add')} aria-expanded={open === 'add'} data-testid="staff-add-toggle">
            Add manager
          </Button>
          <Button size="sm" variant="ghost" onClick={() => toggle('transfer')} aria-expanded={open === 'transfer'} data-testid="staff-transfer-toggle">
            Transfer ownership
          </Button>
        </div>
      )}
    </Card>
  );
}
