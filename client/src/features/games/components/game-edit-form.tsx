// Reschedule, postpone, reinstate or cancel a game that has not started,
// or give it its own clock settings (`PATCH /games/{id}`, the game's
// staff). Cancelling is final on the server, so it asks once more, in
// place.

import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../../../lib/api';
import type { ClockSettings, GameStatus } from '../../../lib/api-types';
import { useSeasonQuery } from '../../../lib/games';
import { ClockSettingsFields, draftOf, readClockSettings } from '../../../components/ui/clock-settings-fields';
import { ownSettings, settingsPatch } from '../model/settings-patch';
import { fromLocalInput, toLocalInput } from '../../../lib/time-zone';
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
  seasonId,
  settings,
  onDone,
}: {
  gameId: string;
  scheduledAt: string;
  status: GameStatus;
  seasonId: string;
  /** The settings in force (the game's own, else its season's). */
  settings?: ClockSettings;
  onDone: () => void;
}) {
  const edit = useEditGame(gameId);
  const season = useSeasonQuery(seasonId).data;
  const seasonSettings: ClockSettings | undefined =
    season?.periodMinutes !== undefined ? { periodMinutes: season.periodMinutes, overtimeMinutes: season.overtimeMinutes ?? 5, clockMode: season.clockMode ?? 'STOP' } : undefined;
  const own = ownSettings(settings, seasonSettings);
  const [clock, setClock] = useState(() => draftOf(null));
  const [clockTouched, setClockTouched] = useState(false);
  const shownClock = clockTouched ? clock : draftOf({ periodMinutes: own.periodMinutes ?? undefined, overtimeMinutes: own.overtimeMinutes ?? undefined, clockMode: own.clockMode ?? undefined });
  const [clockErrors, setClockErrors] = useState<Record<string, string>>({});
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
    if (clockTouched) {
      const read = readClockSettings(clock);
      setClockErrors(read.errors);
      if (Object.keys(read.errors).length > 0) return null;
      Object.assign(out, settingsPatch(own, read.values));
    }
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
      {/* Only where the settings in force are known (the game page, not a schedule row). */}
      {next !== 'CANCELLED' && settings && (
        <ClockSettingsFields
          draft={shownClock}
          inherited={seasonSettings}
          onChange={(d) => {
            setClockTouched(true);
            setClock(d);
          }}
          errors={{ ...clockErrors, ...fieldErrors }}
        />
      )}
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
