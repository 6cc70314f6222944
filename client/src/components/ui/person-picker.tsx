// Pick a person by typing part of their name or username (people search,
// `GET /users?q=`). Used to add managers, hand over ownership and put
// players on a roster.

import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { Page, PublicUser, UserSummary } from '../../lib/api-types';
import { SEARCH_DEBOUNCE_MS } from '../../config/constants';
import { displayName, handle } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { Combobox } from './combobox';

/** How many matches the picker lists. */
const PICKER_LIMIT = 10;

export function toSummary(u: PublicUser | UserSummary): UserSummary {
  return { id: u.id, username: u.username, firstName: u.firstName, lastName: u.lastName, profileImage: u.profileImage };
}

export interface PersonPickerProps {
  label: string;
  value: UserSummary | null;
  onChange: (person: UserSummary | null) => void;
  /** People who cannot be picked here (already managers, already on the roster…). */
  exclude?: readonly string[];
  /** Why someone is excluded, shown as the option's second line. */
  excludedNote?: string;
  error?: string | null;
  hint?: string;
  'data-testid'?: string;
}

export function PersonPicker({ label, value, onChange, exclude = [], excludedNote, error, hint, ...rest }: PersonPickerProps) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    queryKey: ['users', 'search', q, 'picker'],
    queryFn: ({ signal }) => api.get<Page<PublicUser>>('/users', { signal, query: { q, limit: PICKER_LIMIT } }),
    placeholderData: keepPreviousData,
  });
  const people = search.data?.items ?? [];
  const options = people
    .filter((p) => !exclude.includes(p.id) || p.id === value?.id)
    .map((p) => ({ value: p.id, label: displayName(p), description: handle(p) ?? undefined }));
  const hidden = people.filter((p) => exclude.includes(p.id) && p.id !== value?.id).length;

  return (
    <Combobox
      label={label}
      value={value?.id ?? ''}
      valueLabel={value ? displayName(value) : ''}
      onChange={(id) => {
        const found = people.find((p) => p.id === id);
        onChange(found ? toSummary(found) : null);
      }}
      options={options}
      onQueryChange={setText}
      loading={search.isPending}
      emptyText={hidden > 0 && excludedNote ? excludedNote : q ? `No one matches “${q}”` : 'No one to pick yet'}
      placeholder="Search by name or username"
      error={error ?? (search.isError ? 'People search is not answering. Try again in a moment.' : null)}
      hint={hint}
      optional={false}
      data-testid={rest['data-testid']}
    />
  );
}
