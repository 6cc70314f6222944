// Reschedule, postpone, reinstate or cancel a game that has not started,
// or give it its own clock settings (`PATCH /games/{id}`, the game's
// staff). Cancelling is final on the server, so it asks once more, in
// place.

import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { ClockSettings, GameStatus } from '../../../lib/api-types';
import { useSeasonQuery } from '../../../lib/games';
import { CLOCK_FIELDS, ClockSettingsFields, draftOf, readClockSettings } from '../../../components/ui/clock-settings-fields';
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
  const [when, setWhen] = useState(toLocalInput(scheduledAt));
  const [next, setNext] = useState<EditableStatus>(status === 'POSTPONED' ? 'POSTPONED' : 'SCHEDULED');
  // The clock's fields are on screen only where the settings in force are known.
  const clockShown = next !== 'CANCELLED' && Boolean(settings);
  const { errors, formError, check, fail } = useFormErrors({ fields: ['scheduledAt', 'status', ...(clockShown ? CLOCK_FIELDS : [])] });

  const patch = (): GamePatch | null => {
    const iso = fromLocalInput(when);
    const read = clockTouched ? readClockSettings(clock) : null;
    if (!check({ ...(iso ? {} : { scheduledAt: 'Pick a date and a time.' }), ...read?.errors }) || !iso) return null;
    const out: GamePatch = {};
    // The input has minute precision: only a different minute is a change.
    if (when !== toLocalInput(scheduledAt)) out.scheduledAt = iso;
    if (next !== status) out.status = next;
    if (read) Object.assign(out, settingsPatch(own, read.values));
    return out;
  };
  const save = () => {
    const p = patch();
    if (!p) return;
    if (Object.keys(p).length === 0) {
      onDone();
      return;
    }
    edit.mutate(p, { onSuccess: onDone, onError: fail });
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
          error={errors.scheduledAt}
          disabled={next === 'CANCELLED'}
          data-testid="edit-game-when"
        />
        <SelectField label="Status" value={next} onChange={(e) => setNext(e.target.value as EditableStatus)} error={errors.status} data-testid="edit-game-status">
          <option value="SCHEDULED">Scheduled</option>
          <option value="POSTPONED">Postponed</option>
          <option value="CANCELLED">Cancelled</option>
        </SelectField>
      </div>
      {/* Only where the settings in force are known (the game page, not a schedule row). */}
      {clockShown && (
        <ClockSettingsFields
          draft={shownClock}
          inherited={seasonSettings}
          onChange={(d) => {
            setClockTouched(true);
            setClock(d);
          }}
          errors={errors}
        />
      )}
      {next === 'CANCELLED' && <p className="field__hint">Cancelling is final: the game cannot be put back on the schedule. Schedule a new one instead.</p>}
      {formError && <Alert>{formError}</Alert>}
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
