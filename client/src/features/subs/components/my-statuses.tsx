// My statuses: the ones I may edit (mine, my teams', my events' calls for
// subs), each editable in place and taken down in two taps; and posting a
// new one.

import { useState } from 'react';
import { errorMessage } from '../../../lib/api';
import type { Status } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { EditIcon, PlusIcon } from '../../../components/ui/icons';
import { useDeleteStatus } from '../api/statuses';
import { EventStrip, LevelChip, PositionChips, TypeChip, Until } from './status-bits';
import { useNow } from '../../../lib/use-now';
import { StatusForm } from './status-form';
import { useMyStatuses, useMyTeams } from '../../../lib/me';

export function MyStatuses() {
  const mine = useMyStatuses();
  const teams = useMyTeams();
  const [composing, setComposing] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [justPosted, setJustPosted] = useState<string | null>(null);
  const myTeams = teams.data?.items ?? [];
  const now = useNow();
  // The server lists active ones; one that ran out while the page was open goes too.
  const items = (mine.data ?? []).filter((s) => Date.parse(s.expiresAt) > now);

  return (
    <Card className="subs-block" data-testid="my-statuses" aria-labelledby="my-statuses-title">
      <header className="card__header">
        <div>
          <h2 className="card__title" id="my-statuses-title">
            My statuses
          </h2>
          <p className="card__subtitle">What you have up on the board.</p>
        </div>
        {!composing && (
          <div className="card__action">
            <Button size="sm" icon={<PlusIcon size={16} />} onClick={() => setComposing(true)} data-testid="new-status">
              Post
            </Button>
          </div>
        )}
      </header>

      {composing && (
        <div className="my-status my-status--form">
          <StatusForm
            teams={myTeams}
            onCancel={() => setComposing(false)}
            onDone={(s) => {
              setComposing(false);
              setJustPosted(s.id);
            }}
          />
        </div>
      )}

      {mine.isPending ? (
        <p className="muted small">Loading…</p>
      ) : mine.isError ? (
        <Alert action={<Button variant="secondary" size="sm" onClick={() => void mine.refetch()}>Try again</Button>}>{errorMessage(mine.error)}</Alert>
      ) : items.length === 0 ? (
        !composing && (
          <p className="my-statuses__empty" data-testid="no-statuses">
            Free tonight? Say you're <strong>available to sub</strong> and teams short a player find you. Looking for a regular spot? Say you're <strong>looking for a team</strong>.
          </p>
        )
      ) : (
        <ul className="my-statuses__list">
          {items.map((s) =>
            editingId === s.id ? (
              <li key={s.id} className="my-status my-status--form">
                <StatusForm teams={myTeams} editing={s} onCancel={() => setEditingId(null)} onDone={() => setEditingId(null)} />
              </li>
            ) : (
              <MyStatusRow key={s.id} status={s} fresh={justPosted === s.id} onEdit={() => setEditingId(s.id)} />
            ),
          )}
        </ul>
      )}
    </Card>
  );
}

function MyStatusRow({ status, fresh, onEdit }: { status: Status; fresh: boolean; onEdit: () => void }) {
  const remove = useDeleteStatus();
  const forWhom = status.event ? 'For your event' : status.entityType === 'TEAM' ? (status.team?.name ?? 'Your team') : null;
  return (
    <li className={`my-status${fresh ? ' my-status--fresh' : ''}`} data-testid={`my-status-${status.id}`}>
      <div className="my-status__head">
        <TypeChip type={status.type} />
        {forWhom && <span className="my-status__for">{forWhom}</span>}
      </div>
      <div className="chip-row">
        <LevelChip level={status.level} />
        <PositionChips positions={status.positions} />
      </div>
      {status.message && <p className="status-card__message">{status.message}</p>}
      {status.event && <EventStrip event={status.event} />}
      {remove.error && <Alert>{errorMessage(remove.error)}</Alert>}
      <div className="my-status__foot">
        <Until expiresAt={status.expiresAt} />
        <div className="my-status__actions">
          <Button size="sm" variant="ghost" icon={<EditIcon size={15} />} onClick={onEdit} data-testid="edit-status">
            Edit
          </Button>
          <ConfirmButton size="sm" confirmLabel="Tap again to take down" loading={remove.isPending} onConfirm={() => remove.mutate(status.id)} data-testid="take-down">
            Take down
          </ConfirmButton>
        </div>
      </div>
    </li>
  );
}
