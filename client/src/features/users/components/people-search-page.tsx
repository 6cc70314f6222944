import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useUserSearch } from '../api/users';
import { HOCKEY_POSITIONS, SKILL_LEVELS, type HockeyPosition, type SkillLevel } from '../../../lib/api-types';
import { POSITION_LABELS, SKILL_LABELS } from '../../../lib/format';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { errorMessage } from '../../../lib/api';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { PageHeader } from '../../../components/ui/page-header';
import { Card } from '../../../components/ui/card';
import { SearchBox } from '../../../components/ui/search-box';
import { ListSkeleton } from '../../../components/ui/list-row';
import { EmptyState } from '../../../components/ui/empty-state';
import { Alert } from '../../../components/ui/alert';
import { LoadMore } from '../../../components/ui/load-more';
import { PeopleIcon } from '../../../components/ui/icons';
import { UserRow } from './user-row';
import '../users.css';

export function PeopleSearchPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const position = (HOCKEY_POSITIONS as readonly string[]).includes(params.get('position') ?? '') ? (params.get('position') as HockeyPosition) : null;
  const skillLevel = (SKILL_LEVELS as readonly string[]).includes(params.get('level') ?? '') ? (params.get('level') as SkillLevel) : null;
  const filtered = Boolean(q || position || skillLevel);
  const search = useUserSearch(q, { position, skillLevel });
  const items = search.data?.pages.flatMap((p) => p.items) ?? [];

  function onChange(value: string) {
    setText(value);
    const next = new URLSearchParams(params);
    if (value.trim()) next.set('q', value.trim());
    else next.delete('q');
    setParams(next, { replace: true });
  }

  function setFilter(name: 'position' | 'level', value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }

  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Community" title="People" subtitle="Find teammates, coaches, refs and the folks who keep score." />
      <SearchBox
        value={text}
        onChange={onChange}
        placeholder="Search by name or @username"
        label="Search people"
        busy={search.isFetching && text.trim() === q}
        testId="people-search"
      />
      <div className="people-filters" role="group" aria-label="Filter people">
        <select className="input input--select" value={position ?? ''} onChange={(e) => setFilter('position', e.target.value)} aria-label="Position" data-testid="people-position">
          <option value="">Any position</option>
          {HOCKEY_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {POSITION_LABELS[p]}
            </option>
          ))}
        </select>
        <select className="input input--select" value={skillLevel ?? ''} onChange={(e) => setFilter('level', e.target.value)} aria-label="Skill level" data-testid="people-level">
          <option value="">Any level</option>
          {SKILL_LEVELS.map((l) => (
            <option key={l} value={l}>
              {SKILL_LABELS[l]}
            </option>
          ))}
        </select>
      </div>
      <Card padded={false}>
        {search.isPending ? (
          <ListSkeleton />
        ) : search.isError && !filtered ? (
          <EmptyState icon={<PeopleIcon size={28} />} title="Search for people">
            Type a first name, last name or @username, or pick a position or level.
          </EmptyState>
        ) : search.isError ? (
          <div className="card__pad">
            <Alert action={<button className="link-btn" onClick={() => void search.refetch()}>Retry</button>}>
              {errorMessage(search.error)}
            </Alert>
          </div>
        ) : items.length === 0 ? (
          <EmptyState icon={<PeopleIcon size={28} />} title={q ? `No one matches “${q}”` : filtered ? 'No one plays that' : 'No one here yet'}>
            {filtered ? 'Try a first name, last name, @username, or another position or level.' : 'Invite your team — they will show up here.'}
          </EmptyState>
        ) : (
          <>
            <p className="list-caption">{q ? `Results for “${q}”` : filtered ? 'People who play that' : 'People on Rinkside'}</p>
            <ul className="list" data-testid="people-results">
              {items.map((u) => (
                <UserRow key={u.id} user={u} />
              ))}
            </ul>
            <LoadMore hasMore={search.hasNextPage} loading={search.isFetchingNextPage} onLoadMore={() => void search.fetchNextPage()} />
          </>
        )}
      </Card>
    </div>
  );
}
