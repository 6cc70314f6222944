// /teams/:id/rosters/new — the team's staff start a roster for a season at a
// rink (the home rink by default), optionally placed in one of the season's
// divisions and capped at a number of players.

import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useCreateRoster, useTeam, type NewRoster } from '../api/teams';
import { useSeasonDivisions } from '../../../lib/divisions';
import { useFacilitySeasonOptions } from '../../../lib/facilities';
import { errorMessage, type FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { TeamPage } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FacilityPicker } from '../../../components/ui/facility-picker';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { ClipboardIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { DivisionSelect, parseMaxMembers } from '../../../components/ui/roster-fields';
import { PageSpinner } from '../../../components/ui/spinner';

export function NewRosterPage() {
  const { id = '' } = useParams();
  const query = useTeam(id);
  if (query.isPending) return <PageSpinner label="Loading team" />;
  if (query.isError) {
    return (
      <Card>
        <EmptyState icon={<ClipboardIcon size={28} />} title="Could not load this team" action={<ButtonLink to="/teams">All teams</ButtonLink>}>
          {errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  const team = query.data;
  if (!team.viewerRole) {
    return (
      <Card>
        <EmptyState icon={<ClipboardIcon size={28} />} title="Only the team’s staff create rosters" action={<ButtonLink to={`/teams/${team.id}`}>Back to {team.name}</ButtonLink>}>
          Ask the owner to add you as a manager, or ask to join one of its rosters.
        </EmptyState>
      </Card>
    );
  }
  return <NewRosterForm team={team} />;
}

function NewRosterForm({ team }: { team: TeamPage }) {
  const navigate = useNavigate();
  const create = useCreateRoster(team.id);
  const back = `/teams/${team.id}`;

  const [facilityId, setFacilityId] = useState(team.facilityId ?? '');
  const [seasonId, setSeasonId] = useState('');
  const [name, setName] = useState(team.name);
  const [description, setDescription] = useState('');
  const [maxMembers, setMaxMembers] = useState('');
  const [status, setStatus] = useState<'DRAFT' | 'ACTIVE'>('DRAFT');
  const [divisionId, setDivisionId] = useState('');
  const { errors, formError, check, run } = useFormErrors();

  const seasons = useFacilitySeasonOptions(facilityId || null);
  const divisions = useSeasonDivisions(seasonId);
  const seasonList = seasons.data?.items ?? [];

  // A new facility's seasons: preselect its active one (else its latest).
  if (seasons.data && !seasons.data.items.some((s) => s.id === seasonId)) {
    const items = seasons.data.items;
    const preselect = (items.find((s) => s.isActive) ?? items[0])?.id ?? '';
    if (preselect !== seasonId) setSeasonId(preselect);
  }
  // Another season: its divisions are others.
  const [divisionsOf, setDivisionsOf] = useState(seasonId);
  if (divisionsOf !== seasonId) {
    setDivisionsOf(seasonId);
    setDivisionId('');
  }


  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!facilityId) local.facilityId = 'Pick the rink whose season this is.';
    else if (!seasonId) local.seasonId = seasonList.length ? 'Pick a season.' : 'This rink has no seasons yet.';
    if (!name.trim()) local.name = 'Give the roster a name.';
    const max = parseMaxMembers(maxMembers);
    if ('error' in max) local.maxMembers = max.error;
    if (!check(local) || !('value' in max)) return;
    const input: NewRoster = { teamId: team.id, seasonId, name: name.trim(), status };
    if (description.trim()) input.description = description.trim();
    if (max.value !== null) input.maxMembers = max.value;
    if (divisionId) input.divisionMappingId = divisionId;
    await run(async () => {
      const roster = await create.mutateAsync(input);
      navigate(`/rosters/${roster.id}`, { replace: true });
    });
  }

  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow={team.name} title="New roster" subtitle="A roster is the team’s lineup for one season: players, numbers, letters and stats." />
      <Card>
        <form className="stack" onSubmit={submit} noValidate data-testid="roster-form">
          {formError && <Alert>{formError}</Alert>}
          <FacilityPicker
            label="Rink"
            value={facilityId}
            knownName={facilityId === team.facilityId ? team.facilityName : null}
            withZone
            onChange={(v) => {
              setFacilityId(v);
              setSeasonId('');
            }}
            placeholder="Search facilities"
            error={errors.facilityId}
            hint="The rink that runs the season."
            data-testid="roster-facility"
          />
          <SelectField
            label="Season"
            value={seasonId}
            onChange={(e) => setSeasonId(e.target.value)}
            error={errors.seasonId}
            disabled={!facilityId || seasons.isPending || seasonList.length === 0}
            hint={!facilityId ? 'Pick a rink first.' : seasons.isPending ? 'Loading seasons…' : seasonList.length === 0 ? 'This rink has no seasons yet; its staff start them.' : undefined}
            data-testid="roster-season"
          >
            {seasonList.length === 0 && <option value="">No seasons</option>}
            {seasonList.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
                {s.isActive ? ' (active)' : ''}
              </option>
            ))}
          </SelectField>
          <TextField label="Roster name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} maxLength={120} hint="Usually the team’s name, or the name it plays under in this league." data-testid="roster-name" />
          <div className="form-grid">
            <TextField label="Max players" optional inputMode="numeric" placeholder="No limit" value={maxMembers} onChange={(e) => setMaxMembers(e.target.value)} error={errors.maxMembers} data-testid="roster-max" />
            <SelectField label="Status" value={status} onChange={(e) => setStatus(e.target.value as 'DRAFT' | 'ACTIVE')} error={errors.status} data-testid="roster-status">
              <option value="DRAFT">Draft — still building it</option>
              <option value="ACTIVE">Active — playing this season</option>
            </SelectField>
          </div>
          <DivisionSelect mappings={divisions.data ?? []} value={divisionId} onChange={setDivisionId} error={errors.divisionMappingId} loading={Boolean(seasonId) && divisions.isPending} />
          <TextAreaField label="Description" optional rows={3} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} placeholder="Tuesday 9:30 pm, C2. Bring both jerseys." />
          <div className="form-actions">
            <ButtonLink to={back} variant="ghost">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={create.isPending} data-testid="create-roster">
              Create roster
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
