// Posting a status, or editing one. A person posts for themselves (looking
// for a team, available to sub); the owner or a manager of a team posts for
// it (recruiting, looking for subs). Tonight's kinds run to the end of the
// day unless told otherwise; the season-long kinds to the server's 30 days.

import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { Status, StatusType, Team } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ChoiceGroup } from '../../../components/ui/choice-group';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { useCreateStatus, useUpdateStatus } from '../api/statuses';
import { isShortLived, PERSONAL_TYPES, STATUS_TYPE_BLURBS, STATUS_TYPE_LABELS, TEAM_TYPES } from '../model/describe';
import { createBody, defaultUntil, draftOf, MESSAGE_MAX, newDraft, patchBody, validateDraft, type StatusDraft } from '../model/status-draft';
import { PositionsSelect } from './positions-select';

/** Server field names → the form's: who it is for is one field here. */
const PLACEMENT = { rename: (field: string) => (field === 'teamId' || field === 'entityType' ? 'target' : field) };

export interface StatusFormProps {
  /** The teams I may post for. */
  teams: readonly Team[];
  /** Editing this status; creating when absent. */
  editing?: Status;
  onDone: (status: Status) => void;
  onCancel?: () => void;
}

export function StatusForm({ teams, editing, onDone, onCancel }: StatusFormProps) {
  const create = useCreateStatus();
  const update = useUpdateStatus();
  const [draft, setDraft] = useState<StatusDraft>(() => (editing ? draftOf(editing) : newDraft()));
  const { errors, formError, check, fail, clear, setFormError } = useFormErrors(PLACEMENT);
  const pending = create.isPending || update.isPending;
  const types = draft.target === 'me' ? PERSONAL_TYPES : TEAM_TYPES;

  function set(patch: Partial<StatusDraft>) {
    setDraft((d) => {
      const next = { ...d, ...patch };
      // A new kind brings its own default end, unless one was picked by hand.
      if (patch.type && patch.type !== d.type && d.until === defaultUntil(d.type)) next.until = defaultUntil(patch.type);
      return next;
    });
    // A field's message goes once the field is changed.
    clear(...Object.keys(patch).map((k) => (k === 'until' ? 'expiresAt' : k)));
  }

  function pickTarget(target: string) {
    const nextTypes = target === 'me' ? PERSONAL_TYPES : TEAM_TYPES;
    const type = nextTypes.includes(draft.type) ? draft.type : (nextTypes[0] as StatusType);
    set({ target, type });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!check(validateDraft(draft))) return;
    try {
      const saved = editing ? await update.mutateAsync({ id: editing.id, patch: patchBody(draft, editing) }) : await create.mutateAsync(createBody(draft));
      onDone(saved);
    } catch (err) {
      // A team has one status per kind (a person may keep several of their own).
      if (!editing && draft.target !== 'me' && err instanceof ApiError && err.status === 409) {
        const team = teams.find((t) => t.id === draft.target)?.name ?? 'This team';
        setFormError(`${team} already has a "${STATUS_TYPE_LABELS[draft.type].toLowerCase()}" status up. Edit that one instead.`);
      } else {
        fail(err);
      }
    }
  }

  const short = isShortLived(draft.type);
  return (
    <form className="status-form stack" onSubmit={submit} noValidate data-testid="status-form">
      {formError && <Alert>{formError}</Alert>}
      {!editing && teams.length > 0 && (
        <SelectField label="Posting for" value={draft.target} onChange={(e) => pickTarget(e.target.value)} error={errors.target} data-testid="status-target">
          <option value="me">Myself</option>
          {teams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
      )}
      {!editing && (
        <fieldset className="field subs-fieldset">
          <legend className="field__label">{draft.target === 'me' ? "I'm" : 'The team is'}</legend>
          <ChoiceGroup
            aria-label="Kind of status"
            options={types.map((t) => ({
              value: t,
              content: (
                <>
                  <span className="type-choice__label">{STATUS_TYPE_LABELS[t]}</span>
                  <span className="type-choice__blurb">{STATUS_TYPE_BLURBS[t]}</span>
                </>
              ),
              'data-testid': `status-type-${t}`,
            }))}
            value={draft.type}
            onChange={(type) => set({ type })}
            className="type-choice"
            optionClassName="type-choice__opt"
          />
          {errors.type && (
            <p className="field__error" role="alert">
              {errors.type}
            </p>
          )}
        </fieldset>
      )}
      <PositionsSelect label={draft.target === 'me' ? 'Positions I play' : 'Positions needed'} value={draft.positions} onChange={(positions) => set({ positions })} error={errors.positions} />
      <TextAreaField
        label="Message"
        optional
        rows={2}
        maxLength={MESSAGE_MAX}
        placeholder={draft.type === 'AVAILABLE_TO_SUB' ? 'Free after 8, have my own gear.' : draft.type === 'LOOKING_FOR_SUBS' ? 'Need a D-man for the 9:30 game.' : 'A few words on what you are after.'}
        value={draft.message}
        onChange={(e) => set({ message: e.target.value })}
        error={errors.message}
        data-testid="status-message"
      />
      <TextField
        label="Until"
        type="datetime-local"
        optional={!short}
        value={draft.until}
        onChange={(e) => set({ until: e.target.value })}
        error={errors.expiresAt}
        hint={short ? 'Comes down by itself at this time.' : 'Leave empty to keep it up for 30 days.'}
        data-testid="status-until"
      />
      <div className="form-actions">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={pending} data-testid="status-submit">
          {editing ? 'Save' : 'Post'}
        </Button>
      </div>
    </form>
  );
}
