// The season form, for creating a season (facility page) and editing one
// (season page). Days are picked as calendar days at the rink and sent as
// the instants they start and end there. Server messages land beside their
// fields.

import { useState, type FormEvent, type ReactNode } from 'react';
import type { FieldErrors } from '../../lib/api';
import { useFormErrors } from '../../lib/use-form-errors';
import type { ClockMode, SeasonDetail } from '../../lib/api-types';
import { Alert } from './alert';
import { Button } from './button';
import { ClockSettingsFields, draftOf, readClockSettings } from './clock-settings-fields';
import { TextField } from './field';
import { ToggleField } from './toggle-field';
import { dayInRange, FIRST_YEAR, isoToZonedDay, LAST_YEAR, zonedDayToIso, zoneName } from '../../lib/time-zone';
import './season-form.css';

/** What a season form sends (all fields; edits send the changed ones). */
export interface SeasonValues {
  name: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
  syncUrl: string | null;
  syncEnabled: boolean;
  periodMinutes: number;
  overtimeMinutes: number;
  clockMode: ClockMode;
}

/** A season's clock settings when the server did not say (docs/game-night.md › Settings). */
const CLOCK_DEFAULTS = { periodMinutes: 20, overtimeMinutes: 5, clockMode: 'STOP' as ClockMode };

/** The fields of `next` that differ from `season`, for PATCH. */
export function seasonPatch(season: SeasonDetail, next: SeasonValues): Partial<SeasonValues> {
  const patch: Partial<SeasonValues> = {};
  if (next.name !== season.name) patch.name = next.name;
  if (Date.parse(next.startDate) !== Date.parse(season.startDate)) patch.startDate = next.startDate;
  if (Date.parse(next.endDate) !== Date.parse(season.endDate)) patch.endDate = next.endDate;
  if (next.isActive !== season.isActive) patch.isActive = next.isActive;
  if (next.syncUrl !== (season.syncUrl ?? null)) patch.syncUrl = next.syncUrl;
  if (next.syncEnabled !== season.syncEnabled) patch.syncEnabled = next.syncEnabled;
  if (next.periodMinutes !== (season.periodMinutes ?? CLOCK_DEFAULTS.periodMinutes)) patch.periodMinutes = next.periodMinutes;
  if (next.overtimeMinutes !== (season.overtimeMinutes ?? CLOCK_DEFAULTS.overtimeMinutes)) patch.overtimeMinutes = next.overtimeMinutes;
  if (next.clockMode !== (season.clockMode ?? CLOCK_DEFAULTS.clockMode)) patch.clockMode = next.clockMode;
  return patch;
}

const URL_RE = /^https?:\/\/[^\s/]+/i;

export interface SeasonFormProps {
  /** The season being edited; absent when creating. */
  season?: SeasonDetail;
  /** The facility's IANA zone: the days are days there. */
  timezone: string;
  facilityName: string;
  submitLabel: string;
  onSubmit: (values: SeasonValues) => Promise<unknown>;
  /** Rendered left of the submit button (a Cancel link). */
  cancel?: ReactNode;
}

export function SeasonForm({ season, timezone, facilityName, submitLabel, onSubmit, cancel }: SeasonFormProps) {
  const [name, setName] = useState(season?.name ?? '');
  const [start, setStart] = useState(season ? isoToZonedDay(season.startDate, timezone) : '');
  const [end, setEnd] = useState(season ? isoToZonedDay(season.endDate, timezone) : '');
  const [isActive, setActive] = useState(season?.isActive ?? false);
  const [syncUrl, setSyncUrl] = useState(season?.syncUrl ?? '');
  const [syncEnabled, setSyncEnabled] = useState(season?.syncEnabled ?? false);
  const [clock, setClock] = useState(() => draftOf({ ...CLOCK_DEFAULTS, ...(season ? { periodMinutes: season.periodMinutes, overtimeMinutes: season.overtimeMinutes, clockMode: season.clockMode } : {}) }));
  const { errors, formError, submitting, check, run } = useFormErrors();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldErrors = {};
    if (!name.trim()) local.name = 'Give the season a name.';
    const startIso = start ? zonedDayToIso(start, timezone, 'start') : null;
    const endIso = end ? zonedDayToIso(end, timezone, 'end') : null;
    const outOfRange = `Pick a day between ${FIRST_YEAR} and ${LAST_YEAR}.`;
    if (!start) local.startDate = 'Pick the first day.';
    else if (!startIso) local.startDate = 'Not a date.';
    else if (!dayInRange(start)) local.startDate = outOfRange;
    if (!end) local.endDate = 'Pick the last day.';
    else if (!endIso) local.endDate = 'Not a date.';
    else if (!dayInRange(end)) local.endDate = outOfRange;
    if (startIso && endIso && Date.parse(endIso) < Date.parse(startIso)) local.endDate = 'The last day can’t be before the first.';
    const url = syncUrl.trim();
    if (url && !URL_RE.test(url)) local.syncUrl = 'Start with http:// or https://';
    if (syncEnabled && !url) local.syncEnabled = 'Add the schedule URL first.';
    const settings = readClockSettings(clock);
    Object.assign(local, settings.errors);
    if (!check(local) || !startIso || !endIso) return;
    await run(() =>
      onSubmit({
        name: name.trim(),
        startDate: startIso,
        endDate: endIso,
        isActive,
        syncUrl: url || null,
        syncEnabled,
        periodMinutes: settings.values.periodMinutes ?? CLOCK_DEFAULTS.periodMinutes,
        overtimeMinutes: settings.values.overtimeMinutes ?? CLOCK_DEFAULTS.overtimeMinutes,
        clockMode: settings.values.clockMode ?? CLOCK_DEFAULTS.clockMode,
      }),
    );
  }

  const zone = zoneName(timezone);

  return (
    <form className="stack" onSubmit={submit} noValidate data-testid="season-form">
      {formError && <Alert>{formError}</Alert>}
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} placeholder="Winter 2026–27" maxLength={120} data-testid="season-name" />
      <div className="form-grid">
        <TextField label="First day" type="date" value={start} onChange={(e) => setStart(e.target.value)} error={errors.startDate} data-testid="season-start" />
        <TextField label="Last day" type="date" value={end} min={start || undefined} onChange={(e) => setEnd(e.target.value)} error={errors.endDate} data-testid="season-end" />
      </div>
      <p className="field__hint">Days at {facilityName} ({zone}).</p>
      <ToggleField
        label="Active season"
        hint={season?.isActive ? 'Games and standings of this season are current.' : 'Turning it on tells the facility’s followers the season has started.'}
        checked={isActive}
        onChange={setActive}
        error={errors.isActive}
        data-testid="season-active"
      />
      <ClockSettingsFields draft={clock} onChange={setClock} errors={errors} />
      <fieldset className="season-form__sync">
        <legend className="field__label">Schedule sync</legend>
        <TextField
          label="Schedule URL"
          optional
          type="url"
          inputMode="url"
          placeholder="https://league.example.com/schedule.ics"
          value={syncUrl}
          onChange={(e) => setSyncUrl(e.target.value)}
          error={errors.syncUrl}
          hint="An iCalendar (.ics) or CSV schedule. Only the facility’s staff can see it."
          data-testid="season-sync-url"
        />
        <ToggleField
          label="Sync automatically"
          hint="Import games and rosters from the schedule on a timer."
          checked={syncEnabled}
          onChange={setSyncEnabled}
          error={errors.syncEnabled}
          data-testid="season-sync-enabled"
        />
      </fieldset>
      <div className="form-actions">
        {cancel}
        <Button type="submit" loading={submitting} data-testid="save-season">
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
