// The messages of a form, one way for every form: what the form finds
// itself (a name left empty) and what the server refuses (the 422 envelope's
// `details`, CONTRACT.md) land beside the field they are about; anything
// else — a refusal about a field the form does not show, one without
// fields, no answer at all — is said once above the form. The values stay
// the form's own state: what repeats from form to form is the messages.

import { useState } from 'react';
import { ApiError, errorMessage, type FieldErrors } from './api';

export interface RefusalPlacement {
  /**
   * The server's field name → the form's, where one field of the form
   * stands for several of the server's (a letter for `captain` and
   * `alternateCaptain`, the "Until" field for `repeat.until`).
   */
  rename?: (serverField: string) => string;
  /**
   * The fields the form shows. When given, a message about another field
   * goes above the form; without it every field message is kept by name.
   */
  fields?: readonly string[];
  /** Codes refused without details (a 409 "number taken") → the field they are about, with the server's message. */
  codes?: Readonly<Record<string, string>>;
}

/** Where a refusal's messages go: beside fields, and what is left for above the form (null: nothing). */
export function placeRefusal(err: unknown, how: RefusalPlacement = {}): { fields: FieldErrors; form: string | null } {
  if (err instanceof ApiError) {
    const named = Object.entries(err.fieldErrors);
    if (named.length) {
      const fields: FieldErrors = {};
      const elsewhere: string[] = [];
      for (const [serverField, message] of named) {
        const field = how.rename ? how.rename(serverField) : serverField;
        if (!how.fields || how.fields.includes(field)) fields[field] = message;
        else elsewhere.push(message);
      }
      return { fields, form: elsewhere.length ? elsewhere.join(' ') : null };
    }
    const field = how.codes?.[err.code];
    if (field) return { fields: { [field]: err.message }, form: null };
  }
  return { fields: {}, form: errorMessage(err) };
}

/** A refusal as one sentence, where there is no field to put it beside: the server's field messages, else the error's own. */
export function refusalText(err: unknown): string {
  const named = err instanceof ApiError ? Object.values(err.fieldErrors) : [];
  return named.length ? named.join(' ') : errorMessage(err);
}

export interface FormErrors {
  /** Field → message; a field without one is absent. */
  errors: FieldErrors;
  /** The message above the form, if any. */
  formError: string | null;
  /** A save started by `run` is on its way. */
  submitting: boolean;
  /**
   * Shows what the form found itself (and takes down the last message
   * above the form). True when it found nothing, so the save may go.
   */
  check: (found: Partial<FieldErrors>) => boolean;
  /** Places a refusal (or any thrown value): beside its fields, else above the form. */
  fail: (err: unknown) => void;
  /** Runs a save: `submitting` meanwhile, a refusal placed. True when it went through. */
  run: (save: () => Promise<unknown>) => Promise<boolean>;
  /** Takes down the messages of fields just edited; of every field when none is named (the form went back to the server's values). */
  clear: (...fields: string[]) => void;
  /** One field's message (null: none), for a field that checks itself as it is typed. */
  setError: (field: string, message: string | null) => void;
  setFormError: (message: string | null) => void;
  /** Takes every message down, beside the fields and above the form. */
  reset: () => void;
}

export function useFormErrors(how: RefusalPlacement = {}): FormErrors {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const fail = (err: unknown) => {
    const placed = placeRefusal(err, how);
    setErrors(placed.fields);
    setFormError(placed.form);
  };

  return {
    errors,
    formError,
    submitting,
    check: (found) => {
      const shown = Object.fromEntries(Object.entries(found).filter((e): e is [string, string] => typeof e[1] === 'string'));
      setErrors(shown);
      setFormError(null);
      return Object.keys(shown).length === 0;
    },
    fail,
    run: async (save) => {
      setSubmitting(true);
      try {
        await save();
        return true;
      } catch (err) {
        fail(err);
        return false;
      } finally {
        setSubmitting(false);
      }
    },
    clear: (...names) =>
      setErrors((e) => {
        if (names.length === 0) return Object.keys(e).length ? {} : e;
        return names.some((n) => n in e) ? Object.fromEntries(Object.entries(e).filter(([k]) => !names.includes(k))) : e;
      }),
    setError: (field, message) => setErrors(({ [field]: _old, ...rest }) => (message === null ? rest : { ...rest, [field]: message })),
    setFormError,
    reset: () => {
      setErrors({});
      setFormError(null);
    },
  };
}
