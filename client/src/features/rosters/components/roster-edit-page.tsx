// /rosters/:id/edit — name, description, player limit and division. Status
// has its own controls on the roster page; an archived roster is read-only.

import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { Roster } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { ClipboardIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { DivisionSelect, parseMaxMembers } from '../../../components/ui/roster-fields';
import { PageSpinner } from '../../../components/ui/spinner';
import { useEditRoster, useRoster, type RosterPatch } from '../api/rosters';
import { useSeasonDivisions } from '../../../lib/divisions';
import { CONFLICT_FIELDS } from '../model/roster';
import '../rosters.css';

export function RosterEditPage() {
  const { id = '' } = useParams();
  const query = useRoster(id);
  if (query.isPending) return <PageSpinner label="Loading roster" />;
  if (query.isError) {
    return (
      <Card>
        <EmptyState icon={<ClipboardIcon size={28} />} title="Could not load this roster" action={<ButtonLink to="/teams">Find a team</ButtonLink>}>
          {errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  const roster = query.data;
  const back = `/rosters/${roster.id}`;
  if (!roster.viewer.canEdit || roster.status === 'ARCHIVED') {
    return (
      <Card>
        <EmptyState icon={<ClipboardIcon size={28} />} title={roster.status === 'ARCHIVED' ? 'This roster is archived' : 'Only the team’s staff can edit this roster'} action={<ButtonLink to={back}>Back to the roster</ButtonLink>}>
          {roster.status === 'ARCHIVED' ? 'Archived rosters are read-only.' : 'The team’s owner and managers, and the season’s facility staff, can.'}
        </EmptyState>
      </Card>
    );
  }
  return <EditForm roster={roster} />;
}

function EditForm({ roster }: { roster: Roster }) {
  const navigate = useNavigate();
  const edit = useEditRoster(roster.id);
  const divisions = useSeasonDivisions(roster.seasonId);
  const back = `/rosters/${roster.id}`;
  const [name, setName] = useState(roster.name);
  const [description, setDescription] = useState(roster.description ?? '');
  const [maxMembers, setMaxMembers] = useState(roster.maxMembers?.toString() ?? '');
  const [divisionId, setDivisionId] = useState(roster.divisionMappingId ?? '');
  const { errors, formError, check, run } = useFormErrors({ codes: CONFLICT_FIELDS });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Give the roster a name.';
    const max = parseMaxMembers(maxMembers);
    if ('error' in max) local.maxMembers = max.error;
    else if (max.value !== null && max.value < roster.memberCount) local.maxMembers = `${roster.memberCount} players are on it already; take some off first.`;
    if (!check(local) || !('value' in max)) return;
    const patch: RosterPatch = {};
    if (name.trim() !== roster.name) patch.name = name.trim();
    if ((description.trim() || null) !== roster.description) patch.description = description.trim() || null;
    if (max.value !== roster.maxMembers) patch.maxMembers = max.value;
    if ((divisionId || null) !== roster.divisionMappingId) patch.divisionMappingId = divisionId || null;
    await run(async () => {
      if (Object.keys(patch).length) await edit.mutateAsync(patch);
      navigate(back);
    });
  }

  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow={`${roster.teamName} · ${roster.seasonName}`} title="Edit roster" />
      <Card>
        <form className="stack" onSubmit={submit} noValidate data-testid="roster-edit-form">
          {formError && <Alert>{formError}</Alert>}
          <TextField label="Roster name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} maxLength={120} data-testid="roster-name" />
          <TextField
            label="Max players"
            optional
            inputMode="numeric"
            placeholder="No limit"
            value={maxMembers}
            onChange={(e) => setMaxMembers(e.target.value)}
            error={errors.maxMembers}
            hint={`${roster.memberCount} on the roster now.`}
            data-testid="roster-max"
          />
          <DivisionSelect mappings={divisions.data ?? []} value={divisionId} onChange={setDivisionId} error={errors.divisionMappingId} loading={divisions.isPending} />
          <TextAreaField label="Description" optional rows={3} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} />
          <div className="form-actions">
            <ButtonLink to={back} variant="ghost">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={edit.isPending} data-testid="save-roster">
              Save changes
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
