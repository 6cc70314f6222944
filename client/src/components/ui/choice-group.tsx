// Pick one of a few options, shown as buttons: the WAI-ARIA radio group
// pattern (https://www.w3.org/WAI/ARIA/apg/patterns/radio/). The group is one
// tab stop (roving tabindex, on the checked option or else the first); arrows
// move to and select the next or previous option, wrapping; Home/End the first
// and last. Space and Enter select the focused option through the button's own
// click, so a click and a key press run the same onChange.

import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface ChoiceOption<T> {
  value: T;
  content: ReactNode;
  /** Added after the option classes, e.g. `pos-picker__opt--goalie`. */
  className?: string;
  title?: string;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A radio group must have a name, from its own label or from visible text elsewhere. */
type GroupName = { 'aria-label': string; 'aria-labelledby'?: never } | { 'aria-labelledby': string; 'aria-label'?: never };

export type ChoiceGroupProps<T> = GroupName & {
  options: readonly ChoiceOption<T>[];
  /** The checked value; none of the options is checked when it matches none. */
  value: T | null | undefined;
  onChange: (value: T) => void;
  className: string;
  /** Every option has it; the look of the checked one may also come from `[aria-checked='true']`. */
  optionClassName: string;
  checkedClassName?: string;
  disabled?: boolean;
  'data-testid'?: string;
};

/** How far each arrow moves the focus and the selection. */
const STEPS = new Map([
  ['ArrowRight', 1],
  ['ArrowDown', 1],
  ['ArrowLeft', -1],
  ['ArrowUp', -1],
]);

/** The option a key moves to from option `at` of `count`, or null for keys the group leaves alone. */
function targetOf(key: string, at: number, count: number): number | null {
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  const step = STEPS.get(key);
  return step === undefined ? null : (at + step + count) % count;
}

export function ChoiceGroup<T extends string | number>({
  options,
  value,
  onChange,
  className,
  optionClassName,
  checkedClassName,
  disabled,
  ...rest
}: ChoiceGroupProps<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const checked = options.findIndex((o) => o.value === value);
  const tabStop = checked === -1 ? 0 : checked;

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, at: number) {
    const to = targetOf(e.key, at, options.length);
    const next = to === null ? undefined : options[to];
    if (disabled || to === null || !next) return;
    // Arrows would otherwise scroll the page.
    e.preventDefault();
    buttons.current[to]?.focus();
    onChange(next.value);
  }

  return (
    <div className={className} role="radiogroup" aria-label={rest['aria-label']} aria-labelledby={rest['aria-labelledby']} data-testid={rest['data-testid']}>
      {options.map((o, i) => {
        const on = i === checked;
        return (
          <button
            key={o.value}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            role="radio"
            aria-checked={on}
            aria-label={o['aria-label']}
            title={o.title}
            tabIndex={i === tabStop ? 0 : -1}
            className={[optionClassName, on && checkedClassName, o.className].filter(Boolean).join(' ')}
            disabled={disabled}
            onClick={() => onChange(o.value)}
            onKeyDown={(e) => onKeyDown(e, i)}
            data-testid={o['data-testid']}
          >
            {o.content}
          </button>
        );
      })}
    </div>
  );
}
