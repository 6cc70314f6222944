import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useUserSearch } from '../api/users';
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

export function PeopleSearchPage() {
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useUserSearch(q);
  const items = search.data?.pages.flatMap((p) => p.items) ?? [];

  function onChange(value: string) {
    setText(value);
    const next = new URLSearchParams(params);
    if (value.trim()) next.set('q', value.trim());
    else next.delete('q');
    setParams(next, { replace: true });
  }

  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Community" title="People" subtitle="Find teammates, coaches, refs and the folks who keep score." />
      <SearchBox
        value={text}
        onChange={onChange}
        placeholder="Search by name or username"
        label="Search people"
        busy={search.isFetching && text.trim() === q}
        testId="people-search"
      />
      <Card padded={false}>
        {search.isPending ? (
          <ListSkeleton />
        ) : search.isError && !q ? (
          <EmptyState icon={<PeopleIcon size={28} />} title="Search for people">
            Type a first name, last name or username.
          </EmptyState>
        ) : search.isError ? (
          <div className="card__pad">
            <Alert action={<button className="link-btn" onClick={() => void search.refetch()}>Retry</button>}>
              {errorMessage(search.error)}
            </Alert>
          </div>
        ) : items.length === 0 ? (
          <EmptyState icon={<PeopleIcon size={28} />} title={q ? `No one matches “${q}”` : 'No one here yet'}>
            {q ? 'Try a first name, last name or username.' : 'Invite your team — they will show up here.'}
          </EmptyState>
        ) : (
          <>
            <p className="list-caption">{q ? `Results for “${q}”` : 'People on Rinkside'}</p>
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
