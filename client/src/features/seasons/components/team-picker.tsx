// Pick one of our teams for an external one: the teams playing in this
// season first (they are what a league's teams usually are), then any team
// whose name matches what is typed (`GET /teams?q=`).

import { useState } from 'react';
import type { RosterSummary } from '../../../lib/api-types';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Combobox, type ComboboxOption } from '../../../components/ui/combobox';
import { useTeamSearch } from '../api/sync';

export interface PickedTeam {
  id: string;
  name: string;
}

export function TeamPicker({
  label,
  seasonRosters,
  value,
  onChange,
  matchedTo,
  'data-testid': testId,
}: {
  label: string;
  /** The season's rosters (their teams are offered first). */
  seasonRosters: readonly RosterSummary[];
  value: PickedTeam | null;
  onChange: (team: PickedTeam | null) => void;
  /** teamId → the external team it already stands for, noted on the option. */
  matchedTo: ReadonlyMap<string, string>;
  'data-testid'?: string;
}) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useTeamSearch(q, q.length > 0);

  const needle = text.trim().toLowerCase();
  const names = new Map<string, string>();
  const options: ComboboxOption[] = [];
  const note = (teamId: string, fallback?: string) => {
    const taken = matchedTo.get(teamId);
    return taken ? `Already matched to ${taken}` : fallback;
  };
  for (const r of seasonRosters) {
    if (names.has(r.teamId) || (needle && !r.teamName.toLowerCase().includes(needle))) continue;
    names.set(r.teamId, r.teamName);
    options.push({ value: r.teamId, label: r.teamName, description: note(r.teamId, `Plays in this season${r.division ? ` · ${r.division.facilityDivisionName}` : ''}`) });
  }
  if (needle) {
    for (const t of search.data ?? []) {
      if (names.has(t.id)) continue;
      names.set(t.id, t.name);
      options.push({ value: t.id, label: t.name, description: note(t.id, 'Another team on Rinkside') });
    }
  }

  return (
    <Combobox
      label={label}
      value={value?.id ?? ''}
      valueLabel={value?.name ?? ''}
      onChange={(id) => onChange(id ? { id, name: names.get(id) ?? value?.name ?? '' } : null)}
      options={options}
      onQueryChange={setText}
      loading={needle.length > 0 && search.isFetching && options.length === 0}
      placeholder="Type a team’s name"
      emptyText={needle ? 'No team of that name' : 'Type to search every team'}
      data-testid={testId}
    />
  );
}
