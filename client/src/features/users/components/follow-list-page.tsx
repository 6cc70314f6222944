import type { ReactNode } from 'react';
import { Link, NavLink, useParams } from 'react-router';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useFollowingFacilities, useFollowingTeams, usePeopleList } from '../api/users';
import { usePerson } from '../../../lib/orgs';
import { errorMessage } from '../../../lib/api';
import type { Facility, Page, Team } from '../../../lib/api-types';
import { displayName, formatCount, plural } from '../../../lib/format';
import { Card } from '../../../components/ui/card';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { EmptyState } from '../../../components/ui/empty-state';
import { ChevronLeftIcon, PeopleIcon, RinkIcon, TeamIcon } from '../../../components/ui/icons';
import { ListRow, ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { UserRow } from './user-row';

export type FollowListKind = 'followers' | 'following' | 'facilities' | 'teams';

export function FollowListPage({ kind }: { kind: FollowListKind }) {
  const { id = '' } = useParams();
  const user = usePerson(id);
  const name = user.data ? displayName(user.data) : '';

  return (
    <div className="stack-lg">
      <div>
        <Link to={`/users/${id}`} className="back-link">
          <ChevronLeftIcon size={18} /> {name || 'Profile'}
        </Link>
        <h1 className="page-title">{kind === 'followers' ? 'Followers' : 'Following'}</h1>
      </div>
      {kind !== 'followers' && (
        <nav className="tabs" aria-label="Following">
          <NavLink end to={`/users/${id}/following`} className="tabs__tab">
            People
          </NavLink>
          <NavLink to={`/users/${id}/following/facilities`} className="tabs__tab">
            Facilities
          </NavLink>
          <NavLink to={`/users/${id}/following/teams`} className="tabs__tab">
            Teams
          </NavLink>
        </nav>
      )}
      <Card padded={false}>
        {kind === 'followers' && <PeopleList id={id} which="followers" />}
        {kind === 'following' && <PeopleList id={id} which="following" />}
        {kind === 'facilities' && <FacilityList id={id} />}
        {kind === 'teams' && <TeamList id={id} />}
      </Card>
    </div>
  );
}

function Paged<T extends { id: string }>({
  query,
  empty,
  render,
  testId,
}: {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>>;
  empty: ReactNode;
  render: (item: T) => ReactNode;
  testId: string;
}) {
  if (query.isPending) return <ListSkeleton />;
  if (query.isError)
    return (
      <div className="card__pad">
        <Alert>{errorMessage(query.error)}</Alert>
      </div>
    );
  const items = query.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <>{empty}</>;
  return (
    <>
      <ul className="list" data-testid={testId}>
        {items.map(render)}
      </ul>
      <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onLoadMore={() => void query.fetchNextPage()} />
    </>
  );
}

function PeopleList({ id, which }: { id: string; which: 'followers' | 'following' }) {
  const query = usePeopleList(id, which);
  return (
    <Paged
      query={query}
      testId={`${which}-list`}
      render={(u) => <UserRow key={u.id} user={u} />}
      empty={
        <EmptyState icon={<PeopleIcon size={28} />} title={which === 'followers' ? 'No followers yet' : 'Not following anyone yet'}>
          {which === 'followers' ? 'When people follow this profile they show up here.' : 'People this profile follows show up here.'}
        </EmptyState>
      }
    />
  );
}

function FacilityList({ id }: { id: string }) {
  const query = useFollowingFacilities(id);
  return (
    <Paged<Facility>
      query={query}
      testId="following-facilities-list"
      render={(f) => (
        <ListRow
          key={f.id}
          to={`/facilities/${f.id}`}
          media={<Avatar name={f.name} src={f.imageUrl} square />}
          title={f.name}
          subtitle={`${formatCount(f.followerCount)} ${plural(f.followerCount, 'follower')} · ${f.timezone}`}
        />
      )}
      empty={
        <EmptyState icon={<RinkIcon size={28} />} title="No facilities followed">
          Follow your home rink to hear about ice time and seasons.
        </EmptyState>
      }
    />
  );
}

function TeamList({ id }: { id: string }) {
  const query = useFollowingTeams(id);
  return (
    <Paged<Team>
      query={query}
      testId="following-teams-list"
      render={(t) => (
        <ListRow
          key={t.id}
          to={`/teams/${t.id}`}
          media={<Avatar name={t.name} src={t.logoUrl} square />}
          title={t.name}
          subtitle={`${formatCount(t.followerCount)} ${plural(t.followerCount, 'follower')}`}
        />
      )}
      empty={
        <EmptyState icon={<TeamIcon size={28} />} title="No teams followed">
          Follow teams to see their rosters and scores.
        </EmptyState>
      }
    />
  );
}
