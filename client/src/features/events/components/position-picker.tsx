import { HOCKEY_POSITIONS, type HockeyPosition } from '../../../lib/api-types';
import { POSITION_LABELS, POSITION_SHORT } from '../../../lib/format';

/** Six big tap targets (C LW RW LD RD G) as one radio group. */
export function PositionPicker({
  value,
  onChange,
  disabled,
  label = 'Position',
}: {
  value: HockeyPosition;
  onChange: (p: HockeyPosition) => void;
  disabled?: boolean;
  label?: string;
}) {
  return (
    <div className="pos-picker" role="radiogroup" aria-label={label} data-testid="position-picker">
      {HOCKEY_POSITIONS.map((p) => (
        <button
          key={p}
          type="button"
          role="radio"
          aria-checked={value === p}
          aria-label={POSITION_LABELS[p]}
          title={POSITION_LABELS[p]}
          className={`pos-picker__opt${value === p ? ' pos-picker__opt--on' : ''}${p === 'GOALIE' ? ' pos-picker__opt--goalie' : ''}`}
          disabled={disabled}
          onClick={() => onChange(p)}
          data-testid={`pick-${p}`}
        >
          {POSITION_SHORT[p]}
        </button>
      ))}
    </div>
  );
}
