// The terms of an ice bill, for one event or a whole series: an amount in
// the bill's currency, what goalies pay (Free / Half / Full) and whether the
// organiser pays a share. Validates the amount as typed (0 to 100,000.00)
// and follows changes made elsewhere while nothing is being edited.

import { useId, useState, type FormEvent } from 'react';
import { useFormErrors } from '../../../lib/use-form-errors';
import { GOALIE_POLICIES, type GoaliePolicy } from '../../../lib/api-types';
import { COMMON_CURRENCIES, centsToInput, currencySymbol, parseMoney } from '../../../lib/money';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ChoiceGroup } from '../../../components/ui/choice-group';
import { SelectField, TextField } from '../../../components/ui/field';
import { ToggleField } from '../../../components/ui/toggle-field';
import { GOALIE_POLICY_LABELS } from '../model/bill';

export interface BillTerms {
  cents: number | null;
  goaliePolicy: GoaliePolicy;
  organiserPays: boolean;
  currency: string;
}

/** The form shows one field the server names: the amount. */
const PLACEMENT = { fields: ['costCents'] };

export function BillTermsForm({
  terms,
  label,
  hint,
  currencyEditable,
  saving,
  note,
  onSave,
  testIdPrefix,
}: {
  terms: BillTerms;
  label: string;
  hint: string;
  /** Only an event or series without a rink picks its own currency. */
  currencyEditable: boolean;
  saving: boolean;
  note: string;
  onSave: (terms: BillTerms & { cents: number }) => Promise<void>;
  testIdPrefix: string;
}) {
  const policyLabel = useId();
  const server = `${terms.cents ?? ''}|${terms.goaliePolicy}|${terms.organiserPays}|${terms.currency}`;
  const [shown, setShown] = useState(server);
  const [amount, setAmount] = useState(centsToInput(terms.cents, terms.currency));
  const [policy, setPolicy] = useState<GoaliePolicy>(terms.goaliePolicy);
  const [organiserPays, setOrganiserPays] = useState(terms.organiserPays);
  const [currency, setCurrency] = useState(terms.currency);
  // The amount's own complaint goes beside it; anything else above the form.
  const { errors, formError, check, run, clear, setError } = useFormErrors(PLACEMENT);
  const [saved, setSaved] = useState(false);
  // Someone else (another tab, the series total) changed the terms: show theirs.
  if (shown !== server) {
    setShown(server);
    setAmount(centsToInput(terms.cents, terms.currency));
    setPolicy(terms.goaliePolicy);
    setOrganiserPays(terms.organiserPays);
    setCurrency(terms.currency);
  }

  const parsed = amount.trim() === '' ? null : parseMoney(amount, currency);
  const cents = parsed && 'cents' in parsed ? parsed.cents : null;
  const dirty = cents !== terms.cents || policy !== terms.goaliePolicy || organiserPays !== terms.organiserPays || currency !== terms.currency;
  const touched = () => setSaved(false);
  const symbol = currencySymbol(currency);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const p = parseMoney(amount, currency);
    if (!check('error' in p ? { costCents: p.error } : {}) || !('cents' in p)) return;
    if (await run(() => onSave({ cents: p.cents, goaliePolicy: policy, organiserPays, currency }))) setSaved(true);
  }

  return (
    <form className="bill-form" onSubmit={submit} noValidate data-testid={`${testIdPrefix}-form`}>
      {formError && <Alert>{formError}</Alert>}
      <div className={`bill-form__cost${currencyEditable ? ' bill-form__cost--with-currency' : ''}`}>
        <TextField
          label={label}
          inputMode="decimal"
          autoComplete="off"
          prefix={symbol}
          // Room for the symbol, however long ("$", "CA$", "CHF").
          style={{ paddingLeft: `calc(20px + ${symbol.length}ch)` }}
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value);
            clear('costCents');
            touched();
          }}
          onBlur={() => {
            // Tidy what parses ("17.5" → "17.50"); say what does not.
            const p = amount.trim() === '' ? null : parseMoney(amount, currency);
            if (p && 'cents' in p) setAmount(centsToInput(p.cents, currency));
            else if (p) setError('costCents', p.error);
          }}
          error={errors.costCents}
          hint={hint}
          placeholder="0.00"
          data-testid={`${testIdPrefix}-cost`}
        />
        {currencyEditable && (
          <SelectField
            label="Currency"
            value={currency}
            onChange={(e) => {
              setCurrency(e.target.value);
              touched();
            }}
            data-testid={`${testIdPrefix}-currency`}
          >
            {[...new Set([currency, ...COMMON_CURRENCIES])].map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </SelectField>
        )}
      </div>
      <div className="bill-form__policy">
        <span className="field__label" id={policyLabel}>
          Goalies pay
        </span>
        <ChoiceGroup
          aria-labelledby={policyLabel}
          className="seg"
          optionClassName="seg__opt"
          value={policy}
          onChange={(v) => {
            setPolicy(v);
            touched();
          }}
          options={GOALIE_POLICIES.map((p) => ({ value: p, content: GOALIE_POLICY_LABELS[p], 'data-testid': `${testIdPrefix}-goalies-${p}` }))}
          data-testid={`${testIdPrefix}-goalie-policy`}
        />
      </div>
      <ToggleField
        label="I pay my share too"
        hint={organiserPays ? 'You count as a skater in the split.' : 'You play free; the others share the whole cost.'}
        checked={organiserPays}
        onChange={(v) => {
          setOrganiserPays(v);
          touched();
        }}
        data-testid={`${testIdPrefix}-organiser-pays`}
      />
      <div className="tool-row">
        <span className="field__hint">{note}</span>
        {saved && !dirty ? (
          <span className="saved-note" role="status">
            Saved
          </span>
        ) : (
          <Button type="submit" size="sm" loading={saving} disabled={!dirty && cents !== null} data-testid={`${testIdPrefix}-save`}>
            Save
          </Button>
        )}
      </div>
    </form>
  );
}
