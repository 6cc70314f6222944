// A destructive action that asks once, in place: the first tap arms it
// ("Tap again to remove"), a second tap within a few seconds does it.
// Phone-friendly (no modal), and nothing happens on a stray tap.

import { useEffect, useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from './button';

const ARMED_MS = 4000;

export interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  children: ReactNode;
  /** What the armed button says. */
  confirmLabel: ReactNode;
  onConfirm: () => void;
}

export function ConfirmButton({ children, confirmLabel, onConfirm, variant = 'secondary', ...rest }: ConfirmButtonProps) {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!armed) return undefined;
    const t = setTimeout(() => setArmed(false), ARMED_MS);
    return () => clearTimeout(t);
  }, [armed]);
  return (
    <Button
      {...rest}
      variant={armed ? 'danger' : variant}
      aria-live="polite"
      onClick={() => {
        if (armed) {
          setArmed(false);
          onConfirm();
        } else setArmed(true);
      }}
      onBlur={() => setArmed(false)}
    >
      {armed ? confirmLabel : children}
    </Button>
  );
}
