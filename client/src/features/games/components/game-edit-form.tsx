// Reschedule, postpone, reinstate or cancel a game that has not started
// (`PATCH /games/{id}`, the game's staff). Cancelling is final on the
// server, so it asks once more, in place.

import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import type { GameStatus } from '../../../lib/api-types';
import { fromLocalInput, toLocalInput } from '../../../lib/event-format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SelectField, TextField } from '../../../components/ui/field';
import { useEditGame, type GamePatch } from '../api/games';

type EditableStatus = NonNullable<GamePatch['status']>;

export function canEditGame(status: GameStatus): boolean {
  return status === 'SCHEDULED' || status === 'POSTPONED';
}

export function GameEditForm({
  gameId,
  scheduledAt,
  status,
  onDone,
}: {
  gameId: string;
  scheduledAt: string;
  status: GameStatus;
  onDone: () => void;
}) {
  const edit = useEditGame(gameId);
  const [when, setWhen] = useState(toLocalInput(scheduledAt));
  const [next, setNext] = useState<EditableStatus>(status === 'POSTPONED' ? 'POSTPONED' : 'SCHEDULED');
  const [whenError, setWhenError] = useState<string | null>(null);

  const fieldErrors = edit.error instanceof ApiError ? edit.error.fieldErrors : {};
  const patch = (): GamePatch | null => {
    const out: GamePatch = {};
    const iso = fromLocalInput(when);
    if (!iso) {
      setWhenError('Pick a date and a time.');
      return null;
    }
    setWhenError(null);
    // The input has minute precision: only a different minute is a change.
    if (when !== toLocalInput(scheduledAt)) out.scheduledAt = iso;
    if (next !== status) out.status = next;
    return out;
  };
  const save = () => {
    const p = patch();
    if (!p) return;
    if (Object.keys(p).length === 0) {
      onDone();
      return;
    }
    edit.mutate(p, { onSuccess: onDone });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (next !== 'CANCELLED') save();
  };

  return (
    <form className="game-edit" onSubmit={onSubmit} data-testid={`edit-game-form-${gameId}`} noValidate>
      <div className="game-edit__fields">
        <TextField
          label="Face-off"
          type="datetime-local"
          value={when}
          onChange={(e) => setWhen(e.target.value)}
          error={whenError ?? fieldErrors.scheduledAt}
          disabled={next === 'CANCELLED'}
          data-testid="edit-game-when"
        />
        <SelectField label="Status" value={next} onChange={(e) => setNext(e.target.value as EditableStatus)} error={fieldErrors.status} data-testid="edit-game-status">
          <option value="SCHEDULED">Scheduled</option>
          <option value="POSTPONED">Postponed</option>
          <option value="CANCELLED">Cancelled</option>
        </SelectField>
      </div>
      {next === 'CANCELLED' && <p className="field__hint">Cancelling is final: the game cannot be put back on the schedule. Schedule a new one instead.</p>}
      {edit.isError && !fieldErrors.scheduledAt && !fieldErrors.status && <Alert>{errorMessage(edit.error)}</Alert>}
      <div className="game-edit__actions">
        <Button variant="ghost" size="sm" onClick={onDone} disabled={edit.isPending}>
          Close
        </Button>
        {next === 'CANCELLED' ? (
          <ConfirmButton size="sm" confirmLabel="Cancel the game?" onConfirm={save} loading={edit.isPending} data-testid="edit-game-save">
            Cancel game
          </ConfirmButton>
        ) : (
          <Button type="submit" size="sm" loading={edit.isPending} data-testid="edit-game-save">
            Save
          </Button>
        )}
      </div>
    </form>
  );
}
