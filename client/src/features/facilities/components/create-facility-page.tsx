import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useCreateFacility, type NewFacility } from '../api/facilities';
import { ApiError, errorMessage, type FieldErrors } from '../../../lib/api';
import { allTimeZones, browserTimeZone, currentOffset, searchTimeZones } from '../../../lib/timezones';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Combobox } from '../../../components/ui/combobox';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';

export function CreateFacilityPage() {
  const navigate = useNavigate();
  const create = useCreateFacility();
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(() => {
    const tz = browserTimeZone();
    return allTimeZones().includes(tz) ? tz : 'UTC';
  });
  const [tzQuery, setTzQuery] = useState('');
  const [description, setDescription] = useState('');
  const [phoneNumber, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [website, setWebsite] = useState('');
  const [imageUrl, setImageUrl] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const tzOptions = useMemo(
    () => searchTimeZones(tzQuery).slice(0, 50).map((z) => ({ value: z, label: z.replace(/_/g, ' '), description: currentOffset(z) })),
    [tzQuery],
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Give the facility a name.';
    if (!allTimeZones().includes(timezone)) local.timezone = 'Pick a time zone from the list.';
    if (website.trim() && !/^https?:\/\//i.test(website.trim())) local.website = 'Start with http:// or https://';
    if (imageUrl.trim() && !/^https?:\/\//i.test(imageUrl.trim())) local.imageUrl = 'Start with http:// or https://';
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length) return;
    const input: NewFacility = { name: name.trim(), timezone };
    if (description.trim()) input.description = description.trim();
    if (phoneNumber.trim()) input.phoneNumber = phoneNumber.trim();
    if (email.trim()) input.email = email.trim();
    if (website.trim()) input.website = website.trim();
    if (imageUrl.trim()) input.imageUrl = imageUrl.trim();
    try {
      const facility = await create.mutateAsync(input);
      navigate(`/facilities/${facility.id}`, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
      else setFormError(errorMessage(err));
    }
  }

  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Facilities" title="New facility" subtitle="You'll be its owner and can add managers later." />
      <Card>
        <form className="stack" onSubmit={submit} noValidate data-testid="facility-form">
          {formError && <Alert>{formError}</Alert>}
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} placeholder="Lakeside Ice Arena" autoFocus data-testid="facility-name" />
          <Combobox
            label="Time zone"
            value={timezone}
            valueLabel={timezone.replace(/_/g, ' ')}
            onChange={setTimezone}
            options={tzOptions}
            onQueryChange={setTzQuery}
            error={errors.timezone}
            hint="Game and skate times at this rink are shown in this zone."
            placeholder="Search city or region"
            data-testid="facility-timezone"
          />
          <TextAreaField label="Description" optional rows={3} maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} placeholder="Two NHL sheets, pro shop, pickup every weekday at noon." />
          <div className="form-grid">
            <TextField label="Phone" optional type="tel" value={phoneNumber} onChange={(e) => setPhone(e.target.value)} error={errors.phoneNumber} autoComplete="tel" />
            <TextField label="Email" optional type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} autoComplete="email" />
          </div>
          <TextField label="Website" optional type="url" inputMode="url" placeholder="https://" value={website} onChange={(e) => setWebsite(e.target.value)} error={errors.website} />
          <TextField label="Image URL" optional type="url" inputMode="url" placeholder="https://" value={imageUrl} onChange={(e) => setImageUrl(e.target.value)} error={errors.imageUrl} />
          <div className="form-actions">
            <ButtonLink to="/facilities" variant="ghost">
              Cancel
            </ButtonLink>
            <Button type="submit" loading={create.isPending} data-testid="create-facility">
              Create facility
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
