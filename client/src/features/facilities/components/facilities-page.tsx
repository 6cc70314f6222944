import { useState } from 'react';
import { useFacilitySearch } from '../api/facilities';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { errorMessage } from '../../../lib/api';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PlusIcon, RinkIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchBox } from '../../../components/ui/search-box';
import { FacilityRow } from './facility-row';

export function FacilitiesPage() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useFacilitySearch(q);
  const items = search.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="stack-lg">
      <PageHeader
        eyebrow="Ice time"
        title="Facilities"
        subtitle="Rinks and arenas. Follow yours to hear about seasons, skates and games."
        actions={
          <ButtonLink to="/facilities/new" variant="primary" icon={<PlusIcon size={18} />} data-testid="new-facility">
            New facility
          </ButtonLink>
        }
      />
      <SearchBox value={text} onChange={setText} label="Search facilities" placeholder="Search rinks by name" busy={search.isFetching && !search.isPending} testId="facility-search" />
      <Card padded={false}>
        {search.isPending ? (
          <ListSkeleton />
        ) : search.isError ? (
          <div className="card__pad">
            <Alert>{errorMessage(search.error)}</Alert>
          </div>
        ) : items.length === 0 ? (
          <EmptyState
            icon={<RinkIcon size={28} />}
            title={q ? `No rink matches “${q}”` : 'No facilities yet'}
            action={<ButtonLink to="/facilities/new">Add a facility</ButtonLink>}
          >
            {q ? 'Check the spelling, or add it if it is missing.' : 'Add your home rink so teams and seasons can live there.'}
          </EmptyState>
        ) : (
          <>
            <ul className="list">
              {items.map((f) => (
                <FacilityRow key={f.id} facility={f} />
              ))}
            </ul>
            <LoadMore hasMore={search.hasNextPage} loading={search.isFetchingNextPage} onLoadMore={() => void search.fetchNextPage()} />
          </>
        )}
      </Card>
    </div>
  );
}
