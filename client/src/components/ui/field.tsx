import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldChrome {
  label: ReactNode;
  hint?: ReactNode;
  /** A server or client message shown beside the field. */
  error?: string | null;
  optional?: boolean;
}

function FieldFrame({
  id,
  label,
  hint,
  error,
  optional,
  counter,
  children,
}: FieldChrome & { id: string; counter?: ReactNode; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <div className="field__label-row">
        <label className="field__label" htmlFor={id}>
          {label}
          {optional && <span className="field__optional">optional</span>}
        </label>
        {counter}
      </div>
      {children}
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string | null, hint?: ReactNode) {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

export type TextFieldProps = FieldChrome &
  InputHTMLAttributes<HTMLInputElement> & {
    prefix?: ReactNode;
    /** A unit after the value ("h before"), inside the box. */
    suffix?: ReactNode;
    /**
     * The most characters the server takes (after trimming, counted as it
     * counts them): shows a count and marks it over, without cutting what
     * is typed or pasted the way `maxLength` silently does.
     */
    limit?: number;
  };

export function TextField({ label, hint, error, optional, id, prefix, suffix, className, limit, ...input }: TextFieldProps) {
  const auto = useId();
  const fid = id ?? auto;
  const length = limit !== undefined && typeof input.value === 'string' ? Array.from(input.value.trim()).length : 0;
  const counter =
    limit !== undefined ? (
      <span className={`field__counter${length > limit ? ' field__counter--over' : ''}`}>
        {length}/{limit}
      </span>
    ) : undefined;
  return (
    <FieldFrame id={fid} label={label} hint={hint} error={error} optional={optional} counter={counter}>
      <div className={`input-wrap${prefix ? ' input-wrap--prefixed' : ''}${suffix ? ' input-wrap--suffixed' : ''}`}>
        {prefix && <span className="input-wrap__prefix">{prefix}</span>}
        <input
          id={fid}
          className={`input ${className ?? ''}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fid, error, hint)}
          {...input}
        />
        {suffix && (
          <span className="input-wrap__suffix" aria-hidden="true">
            {suffix}
          </span>
        )}
      </div>
    </FieldFrame>
  );
}

export type TextAreaFieldProps = FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement>;

export function TextAreaField({ label, hint, error, optional, id, className, maxLength, value, ...rest }: TextAreaFieldProps) {
  const auto = useId();
  const fid = id ?? auto;
  const length = typeof value === 'string' ? value.length : 0;
  return (
    <FieldFrame
      id={fid}
      label={label}
      hint={hint}
      error={error}
      optional={optional}
      counter={maxLength ? <span className="field__counter">{length}/{maxLength}</span> : undefined}
    >
      <textarea
        id={fid}
        className={`input input--textarea ${className ?? ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fid, error, hint)}
        maxLength={maxLength}
        value={value}
        {...rest}
      />
    </FieldFrame>
  );
}

export type SelectFieldProps = FieldChrome & SelectHTMLAttributes<HTMLSelectElement>;

export function SelectField({ label, hint, error, optional, id, className, children, ...rest }: SelectFieldProps) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldFrame id={fid} label={label} hint={hint} error={error} optional={optional}>
      <select
        id={fid}
        className={`input input--select ${className ?? ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fid, error, hint)}
        {...rest}
      >
        {children}
      </select>
    </FieldFrame>
  );
}
