// An on/off setting with a label and a line of explanation, as a switch
// (a real checkbox with role="switch", so it is keyboard- and reader-friendly).

import { useId, type ReactNode } from 'react';
import './toggle-field.css';

export interface ToggleFieldProps {
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | null;
  disabled?: boolean;
  'data-testid'?: string;
}

export function ToggleField({ label, hint, checked, onChange, error, disabled, ...rest }: ToggleFieldProps) {
  const id = useId();
  return (
    <div className={`toggle-field${error ? ' toggle-field--invalid' : ''}`}>
      <label className="toggle-field__row" htmlFor={id}>
        <span className="toggle-field__text">
          <span className="toggle-field__label">{label}</span>
          {hint && (
            <span className="toggle-field__hint" id={`${id}-hint`}>
              {hint}
            </span>
          )}
        </span>
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="toggle-field__switch"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          data-testid={rest['data-testid']}
        />
      </label>
      {error && (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
