import { useState } from 'react';
import { useTeamSearch } from '../api/teams';
import { SEARCH_DEBOUNCE_MS } from '../../../config/constants';
import { errorMessage } from '../../../lib/api';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { PlusIcon, TeamIcon } from '../../../components/ui/icons';
import { ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchBox } from '../../../components/ui/search-box';
import { TeamRow } from './team-row';

export function TeamsPage() {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const search = useTeamSearch(q);
  const items = search.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="stack-lg">
      <PageHeader
        eyebrow="Clubs"
        title="Teams"
        subtitle="From beer league to travel: follow teams, then join their rosters."
        actions={
          <ButtonLink to="/teams/new" variant="primary" icon={<PlusIcon size={18} />} data-testid="new-team">
            New team
          </ButtonLink>
        }
      />
      <SearchBox value={text} onChange={setText} label="Search teams" placeholder="Search teams by name" busy={search.isFetching && !search.isPending} testId="team-search" />
      <Card padded={false}>
        {search.isPending ? (
          <ListSkeleton />
        ) : search.isError ? (
          <div className="card__pad">
            <Alert>{errorMessage(search.error)}</Alert>
          </div>
        ) : items.length === 0 ? (
          <EmptyState
            icon={<TeamIcon size={28} />}
            title={q ? `No team matches “${q}”` : 'No teams yet'}
            action={<ButtonLink to="/teams/new">Start a team</ButtonLink>}
          >
            {q ? 'Try another name, or start it yourself.' : 'Start yours and invite the group chat.'}
          </EmptyState>
        ) : (
          <>
            <ul className="list">
              {items.map((t) => (
                <TeamRow key={t.id} team={t} />
              ))}
            </ul>
            <LoadMore hasMore={search.hasNextPage} loading={search.isFetchingNextPage} onLoadMore={() => void search.fetchNextPage()} />
          </>
        )}
      </Card>
    </div>
  );
}
