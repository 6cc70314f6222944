// /teams/new and /teams/:id/edit — one form for both. Editing sends only what
// changed (clearing the home rink sends facilityId: null); the owner also
// finds "Delete team" here.

import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useCreateTeam, useDeleteTeam, useTeam, useUpdateTeam, type NewTeam, type TeamPatch } from '../api/teams';
import type { FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { TeamPage } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FacilityPicker } from '../../../components/ui/facility-picker';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { TeamIcon } from '../../../components/ui/icons';
import { OrgEditPage } from '../../../components/ui/org-edit-page';
import { OrgLoadState } from '../../../components/ui/org-load-state';
import { LOAD_COPY } from './team-page';
import { PageHeader } from '../../../components/ui/page-header';

interface Draft {
  name: string;
  facilityId: string;
  description: string;
  logoUrl: string;
}

function TeamForm({
  team,
  initialFacilityId,
  submitLabel,
  cancelTo,
  onSubmit,
}: {
  team?: TeamPage;
  initialFacilityId?: string;
  submitLabel: string;
  cancelTo: string;
  onSubmit: (d: Draft) => Promise<unknown>;
}) {
  const [name, setName] = useState(team?.name ?? '');
  const [facilityId, setFacilityId] = useState(team?.facilityId ?? initialFacilityId ?? '');
  const [description, setDescription] = useState(team?.description ?? '');
  const [logoUrl, setLogoUrl] = useState(team?.logoUrl ?? '');
  const { errors, formError, submitting, check, run } = useFormErrors();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Give the team a name.';
    if (logoUrl.trim() && !/^https?:\/\//i.test(logoUrl.trim())) local.logoUrl = 'Start with http:// or https://';
    if (!check(local)) return;
    await run(() => onSubmit({ name: name.trim(), facilityId, description: description.trim(), logoUrl: logoUrl.trim() }));
  }

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="team-form">
      {formError && <Alert>{formError}</Alert>}
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} placeholder="Frozen Assets" autoFocus={!team} maxLength={120} data-testid="team-name" />
      <FacilityPicker
        label="Home rink"
        optional
        value={facilityId}
        knownName={facilityId === team?.facilityId ? team.facilityName : null}
        withZone
        onChange={setFacilityId}
        placeholder="Search facilities"
        error={errors.facilityId}
        data-testid="team-facility"
      />
      <TextAreaField label="Description" optional rows={3} maxLength={4000} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} placeholder="Sunday night C-league. Good hands, bad knees." data-testid="team-description" />
      <TextField label="Logo URL" optional type="url" inputMode="url" placeholder="https://" value={logoUrl} onChange={(e) => setLogoUrl(e.target.value)} error={errors.logoUrl} data-testid="team-logo" />
      <div className="form-actions">
        <ButtonLink to={cancelTo} variant="ghost">
          Cancel
        </ButtonLink>
        <Button type="submit" loading={submitting} data-testid={team ? 'save-team' : 'create-team'}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

export function CreateTeamPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const create = useCreateTeam();
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Teams" title="New team" subtitle="You'll be the owner. Rosters and seasons come next." />
      <Card>
        <TeamForm
          initialFacilityId={params.get('facilityId') ?? undefined}
          submitLabel="Create team"
          cancelTo="/teams"
          onSubmit={async (d) => {
            const input: NewTeam = { name: d.name };
            if (d.facilityId) input.facilityId = d.facilityId;
            if (d.description) input.description = d.description;
            if (d.logoUrl) input.logoUrl = d.logoUrl;
            const team = await create.mutateAsync(input);
            navigate(`/teams/${team.id}`, { replace: true });
          }}
        />
      </Card>
    </div>
  );
}

/** The changed fields only; emptied optional fields become null. */
export function teamPatch(team: TeamPage, d: Draft): TeamPatch {
  const patch: TeamPatch = {};
  if (d.name !== team.name) patch.name = d.name;
  if ((d.facilityId || null) !== team.facilityId) patch.facilityId = d.facilityId || null;
  if ((d.description || null) !== team.description) patch.description = d.description || null;
  if ((d.logoUrl || null) !== team.logoUrl) patch.logoUrl = d.logoUrl || null;
  return patch;
}

export function EditTeamPage() {
  const { id = '' } = useParams();
  const query = useTeam(id);
  if (query.isPending || query.isError) return <OrgLoadState query={query} icon={<TeamIcon size={28} />} copy={LOAD_COPY} />;
  return <EditTeam team={query.data} />;
}

function EditTeam({ team }: { team: TeamPage }) {
  const navigate = useNavigate();
  const update = useUpdateTeam(team.id);
  const remove = useDeleteTeam(team.id);
  const back = `/teams/${team.id}`;
  return (
    <OrgEditPage
      org={team}
      backTo={back}
      icon={<TeamIcon size={28} />}
      copy={TEAM_COPY}
      remove={remove}
      form={
        <TeamForm
          team={team}
          submitLabel="Save changes"
          cancelTo={back}
          onSubmit={async (d) => {
            const patch = teamPatch(team, d);
            if (Object.keys(patch).length) await update.mutateAsync(patch);
            navigate(back);
          }}
        />
      }
    />
  );
}

const TEAM_COPY = {
  noun: 'team',
  listHref: '/teams',
  dangerSubtitle: 'Its rosters, their players and join requests go with it. A team whose rosters have games on record can’t be deleted.',
};
