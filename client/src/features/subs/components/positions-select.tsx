// Positions as a multi-select of big tap targets. Nothing picked means any
// position, which is what the "Any" chip says; picking "Any" clears the rest.

import { HOCKEY_POSITIONS, type HockeyPosition } from '../../../lib/api-types';
import { POSITION_LABELS } from '../../../lib/format';

export function PositionsSelect({
  value,
  onChange,
  disabled,
  label,
  error,
}: {
  value: readonly HockeyPosition[];
  onChange: (positions: HockeyPosition[]) => void;
  disabled?: boolean;
  label: string;
  error?: string | null;
}) {
  const toggle = (p: HockeyPosition) =>
    // Kept in the scale's order, whatever order they were tapped in.
    onChange(HOCKEY_POSITIONS.filter((q) => (q === p ? !value.includes(p) : value.includes(q))));
  return (
    <fieldset className={`field subs-fieldset${error ? ' field--invalid' : ''}`} disabled={disabled}>
      <legend className="field__label">{label}</legend>
      <div className="pos-multi__opts" role="group" aria-label={label} data-testid="positions-select">
        <button type="button" className="subs-chip" aria-pressed={value.length === 0} onClick={() => onChange([])} data-testid="pos-ANY">
          Any
        </button>
        {HOCKEY_POSITIONS.map((p) => (
          <button
            key={p}
            type="button"
            className={`subs-chip${p === 'GOALIE' ? ' subs-chip--goalie' : ''}`}
            aria-pressed={value.includes(p)}
            onClick={() => toggle(p)}
            data-testid={`pos-${p}`}
          >
            {POSITION_LABELS[p]}
          </button>
        ))}
      </div>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : (
        <p className="field__hint">Pick none for any position.</p>
      )}
    </fieldset>
  );
}
