// A typeahead: type to filter, arrows + Enter or click to pick. Used for the
// IANA time zone list and for picking a facility.

import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface ComboboxOption {
  value: string;
  label: string;
  description?: string;
}

export interface ComboboxProps {
  label: ReactNode;
  /** The picked value ('' for none). */
  value: string;
  /** Text shown for the picked value (defaults to the option label or value). */
  valueLabel?: string;
  onChange: (value: string) => void;
  /** Options for the current query text. */
  options: ComboboxOption[];
  onQueryChange?: (query: string) => void;
  placeholder?: string;
  hint?: ReactNode;
  error?: string | null;
  optional?: boolean;
  loading?: boolean;
  emptyText?: string;
  name?: string;
  'data-testid'?: string;
}

export function Combobox({
  label,
  value,
  valueLabel,
  onChange,
  options,
  onQueryChange,
  placeholder,
  hint,
  error,
  optional,
  loading,
  emptyText = 'No matches',
  name,
  ...rest
}: ComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const shown = valueLabel ?? options.find((o) => o.value === value)?.label ?? value;
  const [text, setText] = useState(shown);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const wrapRef = useRef<HTMLDivElement>(null);

  // Picking from outside (or a reset) updates the text box.
  const [synced, setSynced] = useState({ shown, open });
  if (synced.shown !== shown || synced.open !== open) {
    setSynced({ shown, open });
    if (!open) setText(shown);
  }

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) {
        setOpen(false);
        setText(shown);
      }
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, shown]);

  const visible = options.slice(0, 50);

  function pick(opt: ComboboxOption) {
    onChange(opt.value);
    setText(opt.label);
    setOpen(false);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, Math.max(visible.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter' && open) {
      const opt = visible[active];
      if (opt) {
        e.preventDefault();
        pick(opt);
      }
    } else if (e.key === 'Escape') {
      setOpen(false);
      setText(shown);
    }
  }

  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;

  return (
    <div className={`field combobox${error ? ' field--invalid' : ''}`} ref={wrapRef}>
      <div className="field__label-row">
        <label className="field__label" htmlFor={id}>
          {label}
          {optional && <span className="field__optional">optional</span>}
        </label>
      </div>
      <div className="input-wrap">
        <input
          id={id}
          name={name}
          className="input"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && visible[active] ? `${id}-opt-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          placeholder={open && shown ? shown : placeholder}
          value={text}
          data-testid={rest['data-testid']}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
            onQueryChange?.(e.target.value);
          }}
          onFocus={() => {
            // Start from an empty query so every option shows; the current
            // value stays as the placeholder and comes back if nothing is picked.
            setText('');
            setOpen(true);
            setActive(0);
            onQueryChange?.('');
          }}
          onClick={() => {
            if (open) return;
            setText('');
            setOpen(true);
            setActive(0);
            onQueryChange?.('');
          }}
          onBlur={(e) => {
            if (wrapRef.current && e.relatedTarget instanceof Node && wrapRef.current.contains(e.relatedTarget)) return;
            setOpen(false);
            setText(shown);
          }}
          onKeyDown={onKeyDown}
        />
        {optional && value && (
          <button
            type="button"
            className="combobox__clear"
            aria-label="Clear"
            onClick={() => {
              onChange('');
              setText('');
            }}
          >
            ×
          </button>
        )}
      </div>
      {open && (
        <ul className="combobox__list" id={listId} role="listbox">
          {loading && <li className="combobox__empty">Searching…</li>}
          {!loading && visible.length === 0 && <li className="combobox__empty">{emptyText}</li>}
          {visible.map((opt, i) => (
            <li
              key={opt.value}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={opt.value === value}
              className={`combobox__option${i === active ? ' combobox__option--active' : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(opt)}
            >
              <span>{opt.label}</span>
              {opt.description && <span className="combobox__desc">{opt.description}</span>}
            </li>
          ))}
        </ul>
      )}
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
