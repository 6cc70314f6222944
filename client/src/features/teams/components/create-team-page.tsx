import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useCreateTeam, useFacilityOptions, useHomeFacility, type NewTeam } from '../api/teams';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { ApiError, errorMessage, type FieldErrors } from '../../../lib/api';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Combobox } from '../../../components/ui/combobox';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';

export function CreateTeamPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const create = useCreateTeam();
  const [name, setName] = useState('');
  const [facilityId, setFacilityId] = useState(params.get('facilityId') ?? '');
  const [facilityQuery, setFacilityQuery] = useState('');
  const [description, setDescription] = useState('');
  const [logoUrl, setLogoUrl] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const debounced = useDebouncedValue(facilityQuery.trim(), SEARCH_DEBOUNCE_MS);
  const options = useFacilityOptions(debounced);
  const picked = useHomeFacility(facilityId || null);
  const facilityOptions = (options.data?.items ?? []).map((f) => ({ value: f.id, label: f.name, description: f.timezone.replace(/_/g, ' ') }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Give the team a name.';
    if (logoUrl.trim() && !/^https?:\/\//i.test(logoUrl.trim())) local.logoUrl = 'Start with http:// or https://';
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    const input: NewTeam = { name: name.trim() };
    if (facilityId) input.facilityId = facilityId;
    if (description.trim()) input.description = description.trim();
    if (logoUrl.trim()) input.logoUrl = logoUrl.trim();
    try {
      const team = await create.mutateAsync(input);
      navigate(`/teams/${team.id}`, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      else setFormError(errorMessage(err));
    }
  }

  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Teams" title="New team" subtitle="You'll be the owner. Rosters and seasons come next." />
      <Card>
        <form className="stack" onSubmit={submit} noValidate data-testid="team-form">
          {formError && <Alert>{formError}</Alert>}
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} placeholder="Frozen Assets" autoFocus data-testid="team-name" />
          <Combobox
            label="Home rink"
            optional
            value={facilityId}
            valueLabel={facilityId ? (picked.data?.name ?? '') : ''}
            onChange={setFacilityId}
            options={facilityOptions}
            onQueryChange={setFacilityQuery}
            loading={options.isFetching && !options.data}
            emptyText={debounced ? 'No facility matches' : 'No facilities yet'}
            placeholder="Search facilities"
            error={errors.facilityId}
            data-testid="team-facility"
          />
          <TextAreaField label="Description" optional rows={3} maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} placeholder="Sunday night C-league. Good hands, bad knees." />
          <TextField label="Logo URL" optional type="url" inputMode="url" placeholder="https://" value={logoUrl} onChange={(e) => setLogoUrl(e.target.value)} error={errors.logoUrl} />
          <div className="form-actions">
            <ButtonLink to="/teams" variant="ghost">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={create.isPending} data-testid="create-team">
              Create team
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
