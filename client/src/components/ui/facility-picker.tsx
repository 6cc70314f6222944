// Picking a facility (rink): a typeahead that searches facilities as one
// types and shows the picked one by name (read by id, so a value from the
// URL or a saved form reads right). The event and roster forms, the team
// form and the events and sub-board filters pick rinks with it.

import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../config/constants';
import { useFacility, useFacilityOptions } from '../../lib/facilities';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { zoneName } from '../../lib/time-zone';
import { Combobox, type ComboboxProps } from './combobox';

export interface FacilityPickerProps extends Omit<ComboboxProps, 'options' | 'onQueryChange' | 'loading' | 'emptyText' | 'valueLabel'> {
  /** How the list's empty line names rinks ("No rink matches", "No rinks yet"). */
  noun?: { one: string; many: string };
  /** The picked rink's name while its read is on its way (a team page knows its home rink's). */
  knownName?: string | null;
  /** Each option's time zone under its name, for forms whose times are the rink's. */
  withZone?: boolean;
}

const FACILITY = { one: 'facility', many: 'facilities' };

export function FacilityPicker({ value, noun = FACILITY, knownName, withZone = false, ...rest }: FacilityPickerProps) {
  const [query, setQuery] = useState('');
  const q = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const options = useFacilityOptions(q);
  const picked = useFacility(value || null);
  return (
    <Combobox
      {...rest}
      value={value}
      valueLabel={value ? (picked.data?.name ?? knownName ?? '') : ''}
      options={(options.data?.items ?? []).map((f) => ({ value: f.id, label: f.name, ...(withZone ? { description: zoneName(f.timezone) } : {}) }))}
      onQueryChange={setQuery}
      loading={options.isFetching && !options.data}
      emptyText={q ? `No ${noun.one} matches` : `No ${noun.many} yet`}
    />
  );
}
