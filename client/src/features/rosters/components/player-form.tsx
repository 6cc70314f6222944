// Add a player (pick a person) or edit one: number, position, commitment and
// letter. The roster's rules are the server's (number taken, one captain,
// two alternates, roster full); its refusals show beside the field they are
// about.

import { useState, type FormEvent } from 'react';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import { HOCKEY_POSITIONS, type HockeyPosition, type RosterCommitment, type RosterPlayer, type UserSummary } from '../../../lib/api-types';
import { displayName, POSITION_LABELS } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SelectField, TextField } from '../../../components/ui/field';
import { PersonPicker } from '../../../components/ui/person-picker';
import { useAddPlayer, useEditPlayer, useRemovePlayer, type PlayerFields } from '../api/rosters';
import { CONFLICT_FIELDS } from '../model/roster';

type Letter = '' | 'C' | 'A';

/** '' → no number; else 0–99. */
export function parseJersey(raw: string): { value: number | null } | { error: string } {
  const t = raw.trim().replace(/^#/, '');
  if (t === '') return { value: null };
  if (!/^\d{1,2}$/.test(t)) return { error: 'A number from 0 to 99.' };
  return { value: Number(t) };
}

/** Where the server's refusals go: one letter field for both letters; a 409 code beside the field it is about. */
const PLACEMENT = {
  rename: (field: string) => (field === 'captain' || field === 'alternateCaptain' ? 'letter' : field),
  codes: CONFLICT_FIELDS,
};

export interface PlayerFormProps {
  rosterId: string;
  /** Absent: adding someone. */
  player?: RosterPlayer;
  /** People already on the roster (not offered when adding). */
  onRoster: string[];
  onDone: (message: string) => void;
  onCancel: () => void;
}

export function PlayerForm({ rosterId, player, onRoster, onDone, onCancel }: PlayerFormProps) {
  const add = useAddPlayer(rosterId);
  const edit = useEditPlayer(rosterId);
  const remove = useRemovePlayer(rosterId);
  const [person, setPerson] = useState<UserSummary | null>(null);
  const [jersey, setJersey] = useState(player?.jerseyNumber?.toString() ?? '');
  const [position, setPosition] = useState<HockeyPosition | ''>(player?.position ?? '');
  const [commitment, setCommitment] = useState<RosterCommitment>(player?.commitmentLevel ?? 'FULL_TIME');
  const [letter, setLetter] = useState<Letter>(player?.captain ? 'C' : player?.alternateCaptain ? 'A' : '');
  const { errors, formError, check, run, clear, setFormError } = useFormErrors(PLACEMENT);
  const name = player ? displayName(player.user) : person ? displayName(person) : '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!player && !person) local.userId = 'Pick who to add.';
    const j = parseJersey(jersey);
    if ('error' in j) local.jerseyNumber = j.error;
    if (!check(local) || !('value' in j)) return;
    const fields: PlayerFields = {
      jerseyNumber: j.value,
      position: position || null,
      commitmentLevel: commitment,
      captain: letter === 'C',
      alternateCaptain: letter === 'A',
    };
    await run(async () => {
      if (player) {
        // Only what changed, so a stale form never overwrites someone else's edit.
        const patch: PlayerFields = {};
        if (fields.jerseyNumber !== player.jerseyNumber) patch.jerseyNumber = fields.jerseyNumber;
        if (fields.position !== player.position) patch.position = fields.position;
        if (fields.commitmentLevel !== player.commitmentLevel) patch.commitmentLevel = fields.commitmentLevel;
        if (fields.captain !== player.captain) patch.captain = fields.captain;
        if (fields.alternateCaptain !== player.alternateCaptain) patch.alternateCaptain = fields.alternateCaptain;
        if (Object.keys(patch).length) await edit.mutateAsync({ userId: player.userId, ...patch });
        onDone(`Saved ${name}.`);
      } else if (person) {
        const body: PlayerFields & { userId: string } = { userId: person.id, commitmentLevel: commitment };
        if (fields.jerseyNumber !== null) body.jerseyNumber = fields.jerseyNumber;
        if (fields.position) body.position = fields.position;
        if (fields.captain) body.captain = true;
        if (fields.alternateCaptain) body.alternateCaptain = true;
        await add.mutateAsync(body);
        onDone(`${name} is on the roster.`);
      }
    });
  }

  return (
    <form className="roster-panel" onSubmit={submit} noValidate data-testid={player ? 'edit-player-form' : 'add-player-form'} aria-label={player ? `Edit ${name}` : 'Add a player'}>
      <h3 className="roster-panel__title">{player ? `Edit ${name}` : 'Add a player'}</h3>
      {formError && <Alert>{formError}</Alert>}
      {!player && (
        <PersonPicker
          label="Player"
          value={person}
          onChange={(p) => {
            setPerson(p);
            clear('userId');
          }}
          exclude={onRoster}
          excludedNote="Everyone who matches is already on the roster"
          error={errors.userId}
          data-testid="player-picker"
        />
      )}
      <div className="roster-panel__grid">
        <TextField label="Number" inputMode="numeric" maxLength={3} placeholder="–" value={jersey} onChange={(e) => setJersey(e.target.value)} error={errors.jerseyNumber} data-testid="player-jersey" />
        <SelectField label="Position" value={position} onChange={(e) => setPosition(e.target.value as HockeyPosition | '')} error={errors.position} data-testid="player-position">
          <option value="">Not set</option>
          {HOCKEY_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {POSITION_LABELS[p]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Commitment" value={commitment} onChange={(e) => setCommitment(e.target.value as RosterCommitment)} error={errors.commitmentLevel} data-testid="player-commitment">
          <option value="FULL_TIME">Full-time</option>
          <option value="SUBSTITUTE">Substitute</option>
        </SelectField>
        <SelectField label="Letter" value={letter} onChange={(e) => setLetter(e.target.value as Letter)} error={errors.letter} hint="One captain, up to two alternates." data-testid="player-letter-select">
          <option value="">None</option>
          <option value="C">Captain (C)</option>
          <option value="A">Alternate (A)</option>
        </SelectField>
      </div>
      <div className="roster-panel__actions">
        {player && (
          <ConfirmButton
            size="sm"
            variant="ghost"
            className="roster-panel__remove"
            confirmLabel="Tap again to take them off"
            loading={remove.isPending}
            onConfirm={() =>
              remove.mutate(player.userId, {
                onSuccess: () => onDone(`${name} is off the roster.`),
                onError: (err) => setFormError(errorMessage(err)),
              })
            }
            data-testid="remove-player"
          >
            Remove from roster
          </ConfirmButton>
        )}
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" loading={add.isPending || edit.isPending} data-testid="save-player">
          {player ? 'Save' : 'Add to roster'}
        </Button>
      </div>
    </form>
  );
}
