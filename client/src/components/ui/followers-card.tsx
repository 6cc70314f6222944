import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { Page, PublicUser } from '../../lib/api-types';
import { displayName, handle } from '../../lib/format';
import { Avatar } from './avatar';
import { Card, CardHeader } from './card';
import { ListRow, ListSkeleton } from './list-row';
import { LoadMore } from './load-more';

/** "Who follows this facility/team", with keyset "load more". */
export function FollowersCard({
  query,
  count,
  emptyText,
}: {
  query: UseInfiniteQueryResult<InfiniteData<Page<PublicUser>>>;
  count: number;
  emptyText: string;
}) {
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card padded={false}>
      <div className="card__pad card__pad--header">
        <CardHeader title="Followers" subtitle={count > 0 ? `${count} ${count === 1 ? 'person' : 'people'}` : undefined} />
      </div>
      {query.isPending ? (
        <ListSkeleton rows={2} />
      ) : query.isError || items.length === 0 ? (
        <p className="muted card__pad">{query.isError ? 'Followers could not be loaded.' : emptyText}</p>
      ) : (
        <>
          <ul className="list list--compact">
            {items.map((u) => (
              <ListRow
                key={u.id}
                to={`/users/${u.id}`}
                media={<Avatar name={displayName(u)} src={u.profileImage} size="sm" />}
                title={displayName(u)}
                subtitle={handle(u) ?? undefined}
              />
            ))}
          </ul>
          <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onLoadMore={() => void query.fetchNextPage()} />
        </>
      )}
    </Card>
  );
}
