// A season's divisions: the facility's own names ("C2", "Bronze") placed on
// the universal 1–8 scale, so players can compare leagues across rinks. The
// facility's staff add, rename, re-level and delete them here; rosters placed
// in a division follow the change live.

import { useState, type FormEvent } from 'react';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { DivisionMapping, DivisionScaleLevel, UniversalDivision } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { EditIcon, PlusIcon } from '../../../components/ui/icons';
import { useCreateMapping, useDeleteMapping, useEditMapping, type MappingInput } from '../api/seasons';

/** A name the season has already is refused without details: it is the name's. */
const MAPPING_CONFLICTS = { division_name_taken: 'facilityDivisionName' };

function MappingForm({
  scale,
  mapping,
  onSubmit,
  onCancel,
  testId,
}: {
  scale: DivisionScaleLevel[];
  mapping?: DivisionMapping;
  onSubmit: (input: MappingInput) => Promise<unknown>;
  onCancel: () => void;
  testId: string;
}) {
  const [name, setName] = useState(mapping?.facilityDivisionName ?? '');
  const [level, setLevel] = useState<UniversalDivision | ''>(mapping?.universalDivisionScale ?? '');
  const [description, setDescription] = useState(mapping?.description ?? '');
  const { errors, formError, submitting, check, run, clear } = useFormErrors({ codes: MAPPING_CONFLICTS });
  const chosen = scale.find((s) => s.value === level);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.facilityDivisionName = 'Name the division as the rink does.';
    if (!level) local.universalDivisionScale = 'Pick its level on the scale.';
    if (!check(local) || !level) return;
    await run(() => onSubmit({ facilityDivisionName: name.trim(), universalDivisionScale: level, description: description.trim() || null }));
  }

  return (
    <form className="season-mapping-form" onSubmit={submit} noValidate data-testid={testId}>
      {formError && <Alert>{formError}</Alert>}
      <div className="season-mapping-form__grid">
        <TextField label="Division name" value={name} onChange={(e) => {
            setName(e.target.value);
            clear('facilityDivisionName');
          }} error={errors.facilityDivisionName} placeholder="C2" maxLength={120} data-testid="mapping-name" />
        <SelectField
          label="Universal level"
          value={level}
          onChange={(e) => {
            setLevel(e.target.value as UniversalDivision | '');
            clear('universalDivisionScale');
          }}
          error={errors.universalDivisionScale}
          hint={chosen?.description}
          data-testid="mapping-level"
        >
          <option value="">Pick a level</option>
          {scale.map((s) => (
            <option key={s.value} value={s.value}>
              {s.level} · {s.name}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField label="Description" optional rows={2} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} placeholder="Body checking allowed; mostly ex-junior players." data-testid="mapping-description" />
      <div className="season-mapping-form__actions">
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" loading={submitting} data-testid="save-mapping">
          {mapping ? 'Save division' : 'Add division'}
        </Button>
      </div>
    </form>
  );
}

function LevelBadge({ level, name }: { level: number; name: string }) {
  return (
    <span className="season-level" title={`Level ${level} of 8`}>
      <span className="season-level__bars" aria-hidden="true">
        {Array.from({ length: 8 }, (_, i) => (
          <span key={i} className={i < level ? 'on' : ''} />
        ))}
      </span>
      <span>
        L{level} · {name}
      </span>
    </span>
  );
}

export function DivisionMappingsCard({ seasonId, mappings, scale, canEdit }: { seasonId: string; mappings: DivisionMapping[]; scale: DivisionScaleLevel[]; canEdit: boolean }) {
  const create = useCreateMapping(seasonId);
  const edit = useEditMapping(seasonId);
  const remove = useDeleteMapping(seasonId);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [rowError, setRowError] = useState<string | null>(null);
  // Until the scale has loaded, the value itself reads well enough ("Learn to play").
  const nameOf = (v: UniversalDivision) => scale.find((s) => s.value === v)?.name ?? v.charAt(0) + v.slice(1).toLowerCase().replace(/_/g, ' ');
  const sorted = [...mappings].sort((a, b) => a.level - b.level || a.facilityDivisionName.localeCompare(b.facilityDivisionName));

  return (
    <Card padded={false} data-testid="division-mappings">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Divisions"
          subtitle="The rink’s division names on the universal 1–8 scale."
          action={
            canEdit && editing !== 'new' ? (
              <Button size="sm" variant="secondary" icon={<PlusIcon size={16} />} onClick={() => setEditing('new')} data-testid="add-mapping">
                Add division
              </Button>
            ) : undefined
          }
        />
      </div>
      {editing === 'new' && (
        <MappingForm scale={scale} testId="new-mapping-form" onCancel={() => setEditing(null)} onSubmit={async (input) => {
          await create.mutateAsync(input);
          setEditing(null);
        }} />
      )}
      {rowError && (
        <div className="card__pad">
          <Alert>{rowError}</Alert>
        </div>
      )}
      {sorted.length === 0 && editing !== 'new' ? (
        <p className="muted card__pad season-mappings__empty">{canEdit ? 'No divisions yet. Add the rink’s divisions so rosters can be placed in them.' : 'This season has no divisions.'}</p>
      ) : (
        <ul className="season-mappings">
          {sorted.map((m) =>
            editing === m.id ? (
              <li key={m.id} className="season-mappings__row season-mappings__row--editing">
                <MappingForm
                  scale={scale}
                  mapping={m}
                  testId="edit-mapping-form"
                  onCancel={() => setEditing(null)}
                  onSubmit={async (input) => {
                    const patch: Partial<MappingInput> & { id: string } = { id: m.id };
                    if (input.facilityDivisionName !== m.facilityDivisionName) patch.facilityDivisionName = input.facilityDivisionName;
                    if (input.universalDivisionScale !== m.universalDivisionScale) patch.universalDivisionScale = input.universalDivisionScale;
                    if ((input.description ?? null) !== m.description) patch.description = input.description ?? null;
                    if (Object.keys(patch).length > 1) await edit.mutateAsync(patch);
                    setEditing(null);
                  }}
                />
              </li>
            ) : (
              <li key={m.id} className="season-mappings__row" data-testid={`mapping-${m.facilityDivisionName}`}>
                <div className="season-mappings__main">
                  <span className="season-mappings__name">{m.facilityDivisionName}</span>
                  <LevelBadge level={m.level} name={nameOf(m.universalDivisionScale)} />
                  {m.description && <p className="season-mappings__desc">{m.description}</p>}
                </div>
                {canEdit && (
                  <div className="season-mappings__tools">
                    <button type="button" className="icon-btn" onClick={() => setEditing(m.id)} aria-label={`Edit ${m.facilityDivisionName}`} data-testid="edit-mapping">
                      <EditIcon size={16} />
                    </button>
                    <ConfirmButton
                      size="sm"
                      variant="ghost"
                      confirmLabel="Delete?"
                      loading={remove.isPending && remove.variables === m.id}
                      onConfirm={() => {
                        setRowError(null);
                        remove.mutate(m.id, { onError: (err) => setRowError(errorMessage(err)) });
                      }}
                      aria-label={`Delete ${m.facilityDivisionName}`}
                      data-testid="delete-mapping"
                    >
                      Delete
                    </ConfirmButton>
                  </div>
                )}
              </li>
            ),
          )}
        </ul>
      )}
      {scale.length > 0 && (
        <details className="season-scale card__pad">
          <summary>What do the levels mean?</summary>
          <ol className="season-scale__list">
            {scale.map((s) => (
              <li key={s.value}>
                <strong>
                  {s.level} · {s.name}
                </strong>
                <span>{s.description}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </Card>
  );
}
