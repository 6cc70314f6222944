// The organiser's RSVP rules (docs/pickup-night.md › RSVP rules), for one
// event or a whole series: the late window, regulars first ("opens to all N
// hours before"), the cut-off ("RSVPs lock N hours before"), minimum
// skaters and goalies, and when the game-day check runs. Hours and a clock
// time on screen, minutes on the wire; under the fields, a preview of what
// each rule means on the rink's clock ("Opens to all Sunday 9:30 PM").
// Follows changes made elsewhere while nothing is being edited.

import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { RsvpRulesInput } from '../../../lib/api-types';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { deviceZone } from '../../../lib/time-zone';
import { useRuleClock } from '../model/use-rule-clock';
import { draftFromRules, NO_RULES, rulesFromDraft, rulesPreview, sameRules, type RulesDraft } from '../model/rules';

/** The six rules of a read (the moments and the regulars dropped). */
export function rulesInput(r: RsvpRulesInput): RsvpRulesInput {
  return {
    lateWindowMinutes: r.lateWindowMinutes,
    regularsFirstMinutes: r.regularsFirstMinutes,
    cutoffMinutes: r.cutoffMinutes,
    minSkaters: r.minSkaters,
    minGoalies: r.minGoalies,
    shortCheckMinutes: r.shortCheckMinutes,
  };
}

export interface RsvpRulesFormProps {
  rules: RsvpRulesInput;
  /** The start the rules count back from (the event's, or the series' next week's); null when there is none. */
  startIso: string | null;
  rinkZone: string | null;
  saving: boolean;
  onSave: (rules: RsvpRulesInput) => Promise<void>;
  /** Said beside Save: what a save changes. */
  note: string;
  /** For the preview: "For this event" / "For the week of Dec 8". */
  previewTitle?: string;
  testIdPrefix: string;
}

/** A field's complaint beside the field (named as the server names them); anything else above the form. */
const PLACEMENT = { fields: Object.keys(NO_RULES) };

const FIELDS: Array<{ key: keyof RulesDraft; error: keyof RsvpRulesInput }> = [
  { key: 'regularsFirst', error: 'regularsFirstMinutes' },
  { key: 'cutoff', error: 'cutoffMinutes' },
  { key: 'lateWindow', error: 'lateWindowMinutes' },
  { key: 'minSkaters', error: 'minSkaters' },
  { key: 'minGoalies', error: 'minGoalies' },
  { key: 'checkAt', error: 'shortCheckMinutes' },
];

export function RsvpRulesForm({ rules, startIso, rinkZone, saving, onSave, note, previewTitle, testIdPrefix }: RsvpRulesFormProps) {
  const device = deviceZone();
  const now = useRuleClock([]);
  const server = JSON.stringify([rulesInput(rules), startIso, rinkZone]);
  const [shown, setShown] = useState(server);
  const [draft, setDraft] = useState<RulesDraft>(() => draftFromRules(rules, startIso, rinkZone, device));
  const { errors, formError, check, run, clear } = useFormErrors(PLACEMENT);
  const [saved, setSaved] = useState(false);
  // Someone else changed the rules (another tab, the series' rules): show theirs.
  if (shown !== server) {
    setShown(server);
    setDraft(draftFromRules(rules, startIso, rinkZone, device));
    clear();
  }

  const parsed = rulesFromDraft(draft, startIso, rinkZone, device);
  const dirty = 'rules' in parsed ? !sameRules(parsed.rules, rulesInput(rules)) : true;
  const preview = 'rules' in parsed && startIso ? rulesPreview(parsed.rules, startIso, rinkZone, now, device) : null;

  const set = (key: keyof RulesDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    const field = FIELDS.find((f) => f.key === key)?.error;
    if (field) clear(field);
    setSaved(false);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    if (!check('errors' in parsed ? parsed.errors : {}) || !('rules' in parsed)) return;
    const rulesToSave = parsed.rules;
    if (await run(() => onSave(rulesToSave))) setSaved(true);
  }

  const field = (key: keyof RulesDraft, error: keyof RsvpRulesInput) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key)(e.target.value),
    error: errors[error] ?? null,
    'data-testid': `${testIdPrefix}-${key}`,
  });

  return (
    <form className="rules-form" onSubmit={submit} noValidate data-testid={`${testIdPrefix}-form`}>
      {formError && <Alert>{formError}</Alert>}
      <fieldset className="rules-form__group">
        <legend className="tool-section__title">Who gets in</legend>
        <div className="rules-form__row">
          <TextField label={<>Regulars first: opens to all<span className="sr-only"> (hours before puck drop)</span></>} inputMode="decimal" autoComplete="off" suffix="h before" hint="Blank or 0: open to all from the start." {...field('regularsFirst', 'regularsFirstMinutes')} />
          <TextField label={<>RSVPs lock<span className="sr-only"> (hours before puck drop)</span></>} inputMode="decimal" autoComplete="off" suffix="h before" hint="Blank: no lock. Dropping out still works." {...field('cutoff', 'cutoffMinutes')} />
          <TextField label={<>Late drop-out within<span className="sr-only"> (hours before puck drop)</span></>} inputMode="decimal" autoComplete="off" suffix="h before" hint="Blank: 24 hours." {...field('lateWindow', 'lateWindowMinutes')} />
        </div>
      </fieldset>
      <fieldset className="rules-form__group">
        <legend className="tool-section__title">Game-day check</legend>
        <div className="rules-form__row">
          <TextField label="Minimum skaters" inputMode="numeric" autoComplete="off" hint="Blank: no minimum." {...field('minSkaters', 'minSkaters')} />
          <TextField label="Minimum goalies" inputMode="numeric" autoComplete="off" hint="Blank: no minimum." {...field('minGoalies', 'minGoalies')} />
          <TextField label="Check at" type="time" hint={startIso ? 'On game day (the day before when later than puck drop). Short: it calls for subs.' : 'Blank: no check.'} {...field('checkAt', 'shortCheckMinutes')} />
        </div>
      </fieldset>
      {preview && (
        <div className="rules-preview" data-testid={`${testIdPrefix}-preview`}>
          {previewTitle && <p className="rules-preview__title">{previewTitle}</p>}
          <ul className="rules-preview__list">
            {preview.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="tool-row">
        <span className="field__hint">{note}</span>
        {saved && !dirty ? (
          <span className="saved-note" role="status" data-testid={`${testIdPrefix}-saved`}>
            Saved
          </span>
        ) : (
          <Button type="submit" size="sm" loading={saving} disabled={!dirty} data-testid={`${testIdPrefix}-save`}>
            Save rules
          </Button>
        )}
      </div>
    </form>
  );
}
