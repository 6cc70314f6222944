import { HOCKEY_POSITIONS, type HockeyPosition } from '../../../lib/api-types';
import { POSITION_LABELS, POSITION_SHORT } from '../../../lib/format';
import { ChoiceGroup } from '../../../components/ui/choice-group';

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
    <ChoiceGroup
      aria-label={label}
      options={HOCKEY_POSITIONS.map((p) => ({
        value: p,
        content: POSITION_SHORT[p],
        className: p === 'GOALIE' ? 'pos-picker__opt--goalie' : undefined,
        title: POSITION_LABELS[p],
        'aria-label': POSITION_LABELS[p],
        'data-testid': `pick-${p}`,
      }))}
      value={value}
      onChange={onChange}
      className="pos-picker"
      optionClassName="pos-picker__opt"
      checkedClassName="pos-picker__opt--on"
      disabled={disabled}
      data-testid="position-picker"
    />
  );
}
