// Pieces of the roster create and edit forms: the player limit and the
// division picker (a division mapping of the roster's season).

import type { DivisionMapping } from '../../lib/api-types';
import { SelectField } from './field';

/** The largest roster the server accepts. */
export const MAX_ROSTER_SIZE = 100;

/** '' → no limit; else a whole number 1–100, or a message. */
export function parseMaxMembers(raw: string): { value: number | null } | { error: string } {
  const t = raw.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return { error: 'A whole number, or empty for no limit.' };
  const n = Number(t);
  if (n < 1 || n > MAX_ROSTER_SIZE) return { error: `From 1 to ${MAX_ROSTER_SIZE}, or empty for no limit.` };
  return { value: n };
}

export function DivisionSelect({
  mappings,
  value,
  onChange,
  error,
  loading,
  disabled,
}: {
  mappings: DivisionMapping[];
  value: string;
  onChange: (id: string) => void;
  error?: string | null;
  loading?: boolean;
  disabled?: boolean;
}) {
  const hint = loading ? 'Loading the season’s divisions…' : mappings.length === 0 ? 'This season has no divisions yet; its facility sets them up.' : 'The facility’s division this roster plays in.';
  return (
    <SelectField label="Division" optional value={value} onChange={(e) => onChange(e.target.value)} error={error} hint={hint} disabled={disabled || loading || mappings.length === 0} data-testid="roster-division">
      <option value="">No division</option>
      {mappings.map((m) => (
        <option key={m.id} value={m.id}>
          {m.facilityDivisionName} — level {m.level}
        </option>
      ))}
    </SelectField>
  );
}
