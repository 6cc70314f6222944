// How a season's (or one game's) periods run: period length, overtime
// length and stop or running time (docs/game-night.md › Settings). For a
// game the fields may stay empty: the season's settings apply, and the
// placeholders say what they are.

import type { ClockMode, ClockSettings } from '../../lib/api-types';
import { SelectField, TextField } from './field';
import './clock-settings-fields.css';

/** The form's values: text as typed, '' for "not set" (a game: the season's). */
export interface ClockSettingsDraft {
  periodMinutes: string;
  overtimeMinutes: string;
  clockMode: ClockMode | '';
}

export const draftOf = (s: Partial<ClockSettings> | null | undefined): ClockSettingsDraft => ({
  periodMinutes: s?.periodMinutes !== undefined ? String(s.periodMinutes) : '',
  overtimeMinutes: s?.overtimeMinutes !== undefined ? String(s.overtimeMinutes) : '',
  clockMode: s?.clockMode ?? '',
});

const whole = (text: string, min: number, max: number): number | null | 'bad' => {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? n : 'bad';
};

/** The fields, as the server names them (where its messages about them go). */
export const CLOCK_FIELDS = ['periodMinutes', 'overtimeMinutes', 'clockMode'] as const;

/** The draft read back: numbers or null (not set), with a message per field that is out of range. */
export function readClockSettings(d: ClockSettingsDraft): { values: { periodMinutes: number | null; overtimeMinutes: number | null; clockMode: ClockMode | null }; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const period = whole(d.periodMinutes, 1, 30);
  const overtime = whole(d.overtimeMinutes, 0, 20);
  if (period === 'bad') errors.periodMinutes = 'A period is 1 to 30 minutes.';
  if (overtime === 'bad') errors.overtimeMinutes = 'Overtime is 0 to 20 minutes (0: straight to a shootout).';
  return {
    values: { periodMinutes: period === 'bad' ? null : period, overtimeMinutes: overtime === 'bad' ? null : overtime, clockMode: d.clockMode || null },
    errors,
  };
}

export function ClockSettingsFields({
  draft,
  onChange,
  errors,
  inherited,
  disabled,
}: {
  draft: ClockSettingsDraft;
  onChange: (next: ClockSettingsDraft) => void;
  errors: Record<string, string | undefined>;
  /** A game's: the season's settings, which apply to fields left empty. */
  inherited?: ClockSettings;
  disabled?: boolean;
}) {
  const modeLabel = (m: ClockMode) => (m === 'STOP' ? 'Stop time' : 'Running time');
  return (
    <fieldset className="clock-settings" disabled={disabled} data-testid="clock-settings">
      <legend className="field__label">Game clock</legend>
      <div className="form-grid">
        <TextField
          label="Period length (minutes)"
          type="number"
          inputMode="numeric"
          min={1}
          max={30}
          optional={Boolean(inherited)}
          placeholder={inherited ? `Season’s: ${inherited.periodMinutes}` : '20'}
          value={draft.periodMinutes}
          onChange={(e) => onChange({ ...draft, periodMinutes: e.target.value })}
          error={errors.periodMinutes}
          data-testid="period-minutes"
        />
        <TextField
          label="Overtime (minutes)"
          type="number"
          inputMode="numeric"
          min={0}
          max={20}
          optional={Boolean(inherited)}
          placeholder={inherited ? `Season’s: ${inherited.overtimeMinutes}` : '5'}
          hint="0 goes straight to a shootout."
          value={draft.overtimeMinutes}
          onChange={(e) => onChange({ ...draft, overtimeMinutes: e.target.value })}
          error={errors.overtimeMinutes}
          data-testid="overtime-minutes"
        />
      </div>
      <SelectField
        label="Clock"
        value={draft.clockMode}
        onChange={(e) => onChange({ ...draft, clockMode: e.target.value as ClockMode | '' })}
        error={errors.clockMode}
        hint="Running time keeps the clock going through whistles; the score keeper can still stop it for an injury."
        data-testid="clock-mode"
      >
        {inherited ? <option value="">Season’s: {modeLabel(inherited.clockMode)}</option> : null}
        <option value="STOP">Stop time</option>
        <option value="RUNNING">Running time</option>
      </SelectField>
    </fieldset>
  );
}
