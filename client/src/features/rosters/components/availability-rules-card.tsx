// "Availability rules" on the roster page, for the team's staff
// (docs/availability.md › Rules per roster): when answers lock (hours
// before puck drop) and the minimum skaters and goalies under which the
// board says the team is short. Hours on screen, minutes on the wire; a
// preview says what the rules mean, for the next game on the rink's clock.
// Follows changes made elsewhere while nothing is being edited; a 422
// puts each field's complaint beside it.

import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import type { AvailabilityRules, GameAvailability } from '../../../lib/api-types';
import { useNow } from '../../../lib/use-now';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useAvailabilityBoard, useAvailabilityRules, useSaveAvailabilityRules } from '../api/availability';
import {
  availabilityRulesFromDraft,
  availabilityRulesPreview,
  draftFromAvailabilityRules,
  NO_AVAILABILITY_RULES,
  sameAvailabilityRules,
  type AvailabilityRulesDraft,
} from '../model/availability-rules';
import '../availability.css';

export function AvailabilityRulesCard({ rosterId }: { rosterId: string }) {
  const query = useAvailabilityRules(rosterId);
  const save = useSaveAvailabilityRules(rosterId);
  // The same board the Availability card follows (one topic, one cached read): for the preview's next game.
  const { board } = useAvailabilityBoard(rosterId);
  const now = useNow(60_000);
  const nextGame = board?.games.find((g) => Date.parse(g.startsAt) > now) ?? null;
  // Not mine to read, or a server without the rules: stay away.
  if (query.isError && !query.data) return null;
  return (
    <Card className="avail-rules-card" data-testid="availability-rules">
      <CardHeader title="Availability rules" subtitle="When answers lock, and how many you need." />
      {!query.data ? (
        <div className="center-pad">
          <Spinner label="Loading the rules" />
        </div>
      ) : (
        <AvailabilityRulesForm
          rules={query.data}
          nextGame={nextGame}
          saving={save.isPending}
          onSave={async (r) => {
            await save.mutateAsync(r);
          }}
        />
      )}
    </Card>
  );
}

export interface AvailabilityRulesFormProps {
  rules: AvailabilityRules;
  /** The next game, for the preview's moment; null when none is coming. */
  nextGame: Pick<GameAvailability, 'startsAt' | 'timeZone'> | null;
  saving: boolean;
  onSave: (rules: AvailabilityRules) => Promise<void>;
}

/** A field's complaint beside the field (named as the server names them); anything else above the form. */
const PLACEMENT = { fields: Object.keys(NO_AVAILABILITY_RULES) };

const FIELD_OF: Record<keyof AvailabilityRulesDraft, keyof AvailabilityRules> = {
  lockHours: 'lockMinutes',
  minSkaters: 'minSkaters',
  minGoalies: 'minGoalies',
};

export function AvailabilityRulesForm({ rules, nextGame, saving, onSave }: AvailabilityRulesFormProps) {
  const server = JSON.stringify(rules);
  const [shown, setShown] = useState(server);
  const [draft, setDraft] = useState<AvailabilityRulesDraft>(() => draftFromAvailabilityRules(rules));
  const { errors, formError, check, run, clear } = useFormErrors(PLACEMENT);
  const [saved, setSaved] = useState(false);
  // Someone else changed the rules (another manager, another tab): show theirs.
  if (shown !== server) {
    setShown(server);
    setDraft(draftFromAvailabilityRules(rules));
    clear();
  }

  const parsed = availabilityRulesFromDraft(draft);
  const dirty = 'rules' in parsed ? !sameAvailabilityRules(parsed.rules, rules) : true;
  const preview = 'rules' in parsed ? availabilityRulesPreview(parsed.rules, nextGame) : null;

  const set = (key: keyof AvailabilityRulesDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    clear(FIELD_OF[key]);
    setSaved(false);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    if (!check('errors' in parsed ? parsed.errors : {}) || !('rules' in parsed)) return;
    const rulesToSave = parsed.rules;
    if (await run(() => onSave(rulesToSave))) setSaved(true);
  }

  const field = (key: keyof AvailabilityRulesDraft) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => set(key)(e.target.value),
    error: errors[FIELD_OF[key]] ?? null,
    autoComplete: 'off',
    'data-testid': `avail-rules-${key}`,
  });

  return (
    <form className="avail-rules" onSubmit={submit} noValidate data-testid="avail-rules-form">
      {formError && <Alert>{formError}</Alert>}
      <div className="avail-rules__row">
        <TextField label={<>Answers lock<span className="sr-only"> (hours before puck drop)</span></>} inputMode="decimal" suffix="h before" hint="Blank: no lock. Saying out still works." {...field('lockHours')} />
        <TextField label="Minimum skaters" inputMode="numeric" hint="Defence count. Blank: none." {...field('minSkaters')} />
        <TextField label="Minimum goalies" inputMode="numeric" hint="Blank: none." {...field('minGoalies')} />
      </div>
      {preview && (
        <ul className="avail-rules__preview" data-testid="avail-rules-preview">
          {preview.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <div className="avail-rules__actions">
        <span className="field__hint">Every game coming up takes them at once.</span>
        {saved && !dirty ? (
          <span className="saved-note" role="status" data-testid="avail-rules-saved">
            Saved
          </span>
        ) : (
          <Button type="submit" size="sm" loading={saving} disabled={!dirty} data-testid="avail-rules-save">
            Save rules
          </Button>
        )}
      </div>
    </form>
  );
}
