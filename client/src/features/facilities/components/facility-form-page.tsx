// /facilities/new and /facilities/:id/edit — one form for both. Editing sends
// only what changed (an emptied optional field is cleared with null); the
// owner also finds "Delete facility" here.

import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useCreateFacility, useDeleteFacility, useUpdateFacility, type FacilityPatch, type NewFacility } from '../api/facilities';
import { useFacility } from '../../../lib/facilities';
import type { FieldErrors } from '../../../lib/api';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { Facility, FacilityPage } from '../../../lib/api-types';
import { allTimeZones, deviceZone, searchTimeZones, zoneName, zoneOffsetName } from '../../../lib/time-zone';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Combobox } from '../../../components/ui/combobox';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { COMMON_CURRENCIES } from '../../../lib/money';
import { RinkIcon } from '../../../components/ui/icons';
import { OrgEditPage } from '../../../components/ui/org-edit-page';
import { OrgLoadState } from '../../../components/ui/org-load-state';
import { LOAD_COPY } from './facility-page';
import { PageHeader } from '../../../components/ui/page-header';

const OPTIONAL = ['description', 'phoneNumber', 'email', 'website', 'imageUrl'] as const;
type OptionalField = (typeof OPTIONAL)[number];

interface Draft {
  name: string;
  timezone: string;
  /** ISO 4217; '' on a new rink = let the server pick it from the time zone. */
  currency: string;
  description: string;
  phoneNumber: string;
  email: string;
  website: string;
  imageUrl: string;
}

function draftOf(f?: Facility): Draft {
  const tz = deviceZone();
  return {
    name: f?.name ?? '',
    timezone: f?.timezone ?? (allTimeZones().includes(tz) ? tz : 'UTC'),
    currency: f?.currency ?? '',
    description: f?.description ?? '',
    phoneNumber: f?.phoneNumber ?? '',
    email: f?.email ?? '',
    website: f?.website ?? '',
    imageUrl: f?.imageUrl ?? '',
  };
}

/** The common currencies, and the rink's own when it is another. */
function currencyOptions(current: string): string[] {
  return current && !(COMMON_CURRENCIES as readonly string[]).includes(current) ? [current, ...COMMON_CURRENCIES] : [...COMMON_CURRENCIES];
}

/** "CAD · Canadian dollar" in the reader's language; the code alone where Intl has no name. */
function currencyLabel(code: string): string {
  try {
    const name = new Intl.DisplayNames(undefined, { type: 'currency' }).of(code);
    return name && name !== code ? `${code} · ${name}` : code;
  } catch {
    return code;
  }
}

function findProblems(d: Draft): FieldErrors {
  const local: FieldErrors = {};
  if (!d.name.trim()) local.name = 'Give the facility a name.';
  if (!allTimeZones().includes(d.timezone)) local.timezone = 'Pick a time zone from the list.';
  if (d.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(d.email.trim())) local.email = 'That doesn’t look like an email address.';
  if (d.website.trim() && !/^https?:\/\//i.test(d.website.trim())) local.website = 'Start with http:// or https://';
  if (d.imageUrl.trim() && !/^https?:\/\//i.test(d.imageUrl.trim())) local.imageUrl = 'Start with http:// or https://';
  return local;
}

function FacilityForm({
  facility,
  submitLabel,
  cancelTo,
  onSubmit,
}: {
  facility?: Facility;
  submitLabel: string;
  cancelTo: string;
  onSubmit: (draft: Draft) => Promise<unknown>;
}) {
  const [d, setD] = useState<Draft>(() => draftOf(facility));
  const [tzQuery, setTzQuery] = useState('');
  const { errors, formError, submitting, check, run } = useFormErrors();
  const set = (k: keyof Draft) => (value: string) => setD((x) => ({ ...x, [k]: value }));

  const tzOptions = useMemo(
    () => searchTimeZones(tzQuery).slice(0, 50).map((z) => ({ value: z, label: zoneName(z), description: zoneOffsetName(z) })),
    [tzQuery],
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!check(findProblems(d))) return;
    await run(() => onSubmit(d));
  }

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="facility-form">
      {formError && <Alert>{formError}</Alert>}
      <TextField label="Name" value={d.name} onChange={(e) => set('name')(e.target.value)} error={errors.name} placeholder="Lakeside Ice Arena" autoFocus={!facility} maxLength={120} data-testid="facility-name" />
      <Combobox
        label="Time zone"
        value={d.timezone}
        valueLabel={zoneName(d.timezone)}
        onChange={set('timezone')}
        options={tzOptions}
        onQueryChange={setTzQuery}
        error={errors.timezone}
        hint="Game and skate times at this rink are shown in this zone."
        placeholder="Search city or region"
        data-testid="facility-timezone"
      />
      <SelectField
        label="Currency"
        value={d.currency}
        onChange={(e) => set('currency')(e.target.value)}
        error={errors.currency}
        hint="Ice bills for events at this rink are in this currency."
        data-testid="facility-currency"
      >
        {!facility && <option value="">Set from the time zone</option>}
        {currencyOptions(d.currency).map((c) => (
          <option key={c} value={c}>
            {currencyLabel(c)}
          </option>
        ))}
      </SelectField>
      <TextAreaField label="Description" optional rows={3} maxLength={4000} value={d.description} onChange={(e) => set('description')(e.target.value)} error={errors.description} placeholder="Two NHL sheets, pro shop, pickup every weekday at noon." />
      <div className="form-grid">
        <TextField label="Phone" optional type="tel" value={d.phoneNumber} onChange={(e) => set('phoneNumber')(e.target.value)} error={errors.phoneNumber} autoComplete="tel" maxLength={40} data-testid="facility-phone" />
        <TextField label="Email" optional type="email" value={d.email} onChange={(e) => set('email')(e.target.value)} error={errors.email} autoComplete="email" data-testid="facility-email" />
      </div>
      <TextField label="Website" optional type="url" inputMode="url" placeholder="https://" value={d.website} onChange={(e) => set('website')(e.target.value)} error={errors.website} data-testid="facility-website" />
      <TextField label="Image URL" optional type="url" inputMode="url" placeholder="https://" value={d.imageUrl} onChange={(e) => set('imageUrl')(e.target.value)} error={errors.imageUrl} />
      <div className="form-actions">
        <ButtonLink to={cancelTo} variant="ghost">
          Cancel
        </ButtonLink>
        <Button type="submit" loading={submitting} data-testid={facility ? 'save-facility' : 'create-facility'}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

export function CreateFacilityPage() {
  const navigate = useNavigate();
  const create = useCreateFacility();
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Facilities" title="New facility" subtitle="You'll be its owner and can add managers later." />
      <Card>
        <FacilityForm
          submitLabel="Create facility"
          cancelTo="/facilities"
          onSubmit={async (d) => {
            const input: NewFacility = { name: d.name.trim(), timezone: d.timezone, ...(d.currency ? { currency: d.currency } : {}) };
            for (const k of OPTIONAL) if (d[k].trim()) input[k] = d[k].trim();
            const facility = await create.mutateAsync(input);
            navigate(`/facilities/${facility.id}`, { replace: true });
          }}
        />
      </Card>
    </div>
  );
}

/** The changed fields only; an emptied optional field becomes null. */
export function facilityPatch(f: Facility, d: Draft): FacilityPatch {
  const patch: FacilityPatch = {};
  if (d.name.trim() !== f.name) patch.name = d.name.trim();
  if (d.timezone !== f.timezone) patch.timezone = d.timezone;
  if (d.currency && d.currency !== f.currency) patch.currency = d.currency;
  for (const k of OPTIONAL) {
    const next = d[k].trim() || null;
    if (next !== (f[k as OptionalField] ?? null)) patch[k] = next;
  }
  return patch;
}

export function EditFacilityPage() {
  const { id = '' } = useParams();
  const query = useFacility(id, { fresh: true });
  if (query.isPending || query.isError) return <OrgLoadState query={query} icon={<RinkIcon size={28} />} copy={LOAD_COPY} />;
  return <EditFacility facility={query.data} />;
}

function EditFacility({ facility }: { facility: FacilityPage }) {
  const navigate = useNavigate();
  const update = useUpdateFacility(facility.id);
  const remove = useDeleteFacility(facility.id);
  const back = `/facilities/${facility.id}`;
  return (
    <OrgEditPage
      org={facility}
      backTo={back}
      icon={<RinkIcon size={28} />}
      copy={FACILITY_COPY}
      remove={remove}
      form={
        <FacilityForm
          facility={facility}
          submitLabel="Save changes"
          cancelTo={back}
          onSubmit={async (d) => {
            const patch = facilityPatch(facility, d);
            if (Object.keys(patch).length) await update.mutateAsync(patch);
            navigate(back);
          }}
        />
      }
    />
  );
}

const FACILITY_COPY = {
  noun: 'facility',
  listHref: '/facilities',
  dangerSubtitle:
    'Its seasons, their divisions and rosters go with it; teams based here stay, without a home rink. A facility with games on record can’t be deleted.',
};
