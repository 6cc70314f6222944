// /facilities/:id — the rink: details, its seasons, the teams based there,
// its staff and followers. Staff edit it and start seasons; the owner also
// manages the staff and can delete it (from the edit page).

import { useSyncExternalStore } from 'react';
import { Link, useParams } from 'react-router';
import { useFacility, useFacilityFollowers, useFacilitySeasons, useFacilityTeams, useManagerLink, usePerson, useTransferFacility } from '../api/facilities';
import { ApiError, errorMessage } from '../../../lib/api';
import type { FacilityPage as FacilityPageData, SeasonDetail } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { displayName, formatCount, plural } from '../../../lib/format';
import { currentOffset } from '../../../lib/timezones';
import { useFollowToggle } from '../../../lib/use-follow-toggle';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { FollowButton } from '../../../components/ui/follow-button';
import { FollowersCard } from '../../../components/ui/followers-card';
import { CalendarIcon, ClockIcon, EditIcon, GlobeIcon, MailIcon, PhoneIcon, PlusIcon, RinkIcon, TeamIcon } from '../../../components/ui/icons';
import { ListRow, ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { PageSpinner } from '../../../components/ui/spinner';
import { StaffCard } from '../../../components/ui/staff-card';
import { formatDayRange } from '../../../components/ui/zoned-date';
import { ActiveChip, IconTile, OrgLayout, RoleTag, RowTitle } from '../../../components/ui/org-layout';

export function FacilityPage() {
  const { id = '' } = useParams();
  const query = useFacility(id);
  if (query.isPending) return <PageSpinner label="Loading facility" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<RinkIcon size={28} />}
          title={notFound ? 'This rink is not on Rinkside' : 'Could not load this facility'}
          action={notFound ? <ButtonLink to="/facilities">All facilities</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been removed.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <FacilityView key={query.data.id} facility={query.data} />;
}

function timeIn(tz: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: tz, hour: 'numeric', minute: '2-digit' }).format(new Date());
  } catch {
    return '';
  }
}

/** Ticks every half minute: the clock the rink's local time is read from. */
function subscribeToClock(onTick: () => void): () => void {
  const t = setInterval(onTick, 30_000);
  return () => clearInterval(t);
}

/** The wall-clock time at the rink, refreshed every half minute. */
function useLocalTime(tz: string) {
  return useSyncExternalStore(subscribeToClock, () => timeIn(tz));
}

function FacilityView({ facility }: { facility: FacilityPageData }) {
  const { user } = useAuth();
  const myId = user?.id ?? '';
  const follow = useFollowToggle('facilities', facility);
  const owner = usePerson(facility.ownerId);
  const followers = useFacilityFollowers(facility.id);
  const localTime = useLocalTime(facility.timezone);
  const managerLink = useManagerLink(facility.id);
  const transfer = useTransferFacility(facility.id);
  const isStaff = facility.viewerRole !== null;

  return (
    <div className="stack-lg" data-testid="facility-page">
      <Card padded={false} className="entity-hero">
        <div className="entity-hero__banner entity-hero__banner--rink" aria-hidden="true" />
        <div className="entity-hero__body">
          <Avatar name={facility.name} src={facility.imageUrl} size="xl" square />
          <div className="entity-hero__text">
            <p className="page-header__eyebrow">
              Facility
              {facility.viewerRole && <RoleTag>{facility.viewerRole === 'OWNER' ? 'You own it' : 'You manage it'}</RoleTag>}
            </p>
            <h1 className="entity-hero__name">{facility.name}</h1>
            <p className="entity-hero__meta">
              <span data-testid="facility-follower-count">{formatCount(follow.followerCount)}</span> {plural(follow.followerCount, 'follower')}
              {owner.data && (
                <>
                  {' · Run by '}
                  <Link to={`/users/${owner.data.id}`}>{owner.data.id === myId ? 'you' : displayName(owner.data)}</Link>
                </>
              )}
            </p>
          </div>
          <div className="entity-hero__actions org-hero-actions">
            {isStaff && (
              <ButtonLink to={`/facilities/${facility.id}/edit`} variant="secondary" icon={<EditIcon size={16} />} data-testid="edit-facility">
                Edit
              </ButtonLink>
            )}
            <ButtonLink to={`/teams/new?facilityId=${encodeURIComponent(facility.id)}`} variant="secondary" icon={<PlusIcon size={16} />}>
              New team here
            </ButtonLink>
            <FollowButton subject={facility.name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />
          </div>
        </div>
        {follow.error && (
          <div className="card__pad">
            <Alert>{errorMessage(follow.error)}</Alert>
          </div>
        )}
      </Card>

      <OrgLayout
        main={
          <>
            <SeasonsCard facility={facility} />
            <TeamsCard facilityId={facility.id} />
          </>
        }
        side={
          <>
          <Card>
            <CardHeader title="About" />
            {facility.description ? <p className="prose">{facility.description}</p> : <p className="muted">No description yet.</p>}
            <ul className="detail-list facility-details">
              <li>
                <ClockIcon size={18} />
                <span data-testid="facility-timezone-text">
                  {facility.timezone.replace(/_/g, ' ')} <span className="muted">({currentOffset(facility.timezone)}{localTime ? `, now ${localTime}` : ''})</span>
                </span>
              </li>
              {facility.phoneNumber && (
                <li>
                  <PhoneIcon size={18} />
                  <a href={`tel:${facility.phoneNumber}`}>{facility.phoneNumber}</a>
                </li>
              )}
              {facility.email && (
                <li>
                  <MailIcon size={18} />
                  <a href={`mailto:${facility.email}`}>{facility.email}</a>
                </li>
              )}
              {facility.website && /^https?:\/\//i.test(facility.website) && (
                <li>
                  <GlobeIcon size={18} />
                  <a href={facility.website} target="_blank" rel="noopener noreferrer">
                    {facility.website.replace(/^https?:\/\//i, '').replace(/\/$/, '')}
                  </a>
                </li>
              )}
            </ul>
          </Card>
          <StaffCard
            noun="facility"
            ownerId={facility.ownerId}
            owner={owner.data ?? null}
            managers={facility.managers}
            viewerRole={facility.viewerRole}
            myId={myId}
            onAddManager={(userId) => managerLink.mutateAsync({ userId, add: true })}
            onRemoveManager={(userId) => managerLink.mutateAsync({ userId, add: false })}
            onTransfer={(userId) => transfer.mutateAsync(userId)}
          />
          <FollowersCard query={followers} count={follow.followerCount} emptyText="No followers yet. Be the first." />
          </>
        }
      />
    </div>
  );
}

function SeasonRow({ season, timezone }: { season: SeasonDetail; timezone: string }) {
  return (
    <ListRow
      to={`/seasons/${season.id}`}
      testId={`season-row-${season.id}`}
      media={<IconTile icon={<CalendarIcon size={20} />} live={season.isActive} />}
      title={<RowTitle text={season.name} chips={season.isActive ? <ActiveChip /> : null} />}
      subtitle={formatDayRange(season.startDate, season.endDate, timezone)}
    />
  );
}

function SeasonsCard({ facility }: { facility: FacilityPageData }) {
  const list = useFacilitySeasons(facility.id);
  const seasons = list.data ? list.data.pages.flatMap((p) => p.items) : facility.seasons;
  const isStaff = facility.viewerRole !== null;
  return (
    <Card padded={false} data-testid="facility-seasons">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Seasons"
          subtitle={seasons.length ? 'Leagues and sessions at this rink, latest first.' : undefined}
          action={
            isStaff ? (
              <ButtonLink to={`/facilities/${facility.id}/seasons/new`} size="sm" variant="primary" icon={<PlusIcon size={16} />} data-testid="new-season">
                New season
              </ButtonLink>
            ) : undefined
          }
        />
      </div>
      {seasons.length === 0 ? (
        <EmptyState icon={<CalendarIcon size={26} />} title="No seasons yet">
          {isStaff ? 'Start one to run a league here: rosters, games and standings live in a season.' : 'When the rink starts a league, its seasons show up here.'}
        </EmptyState>
      ) : (
        <>
          <ul className="list">
            {seasons.map((s) => (
              <SeasonRow key={s.id} season={s} timezone={facility.timezone} />
            ))}
          </ul>
          <LoadMore hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onLoadMore={() => void list.fetchNextPage()} />
        </>
      )}
    </Card>
  );
}

function TeamsCard({ facilityId }: { facilityId: string }) {
  const teams = useFacilityTeams(facilityId);
  const items = teams.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Card padded={false} data-testid="facility-teams">
      <div className="card__pad card__pad--header">
        <CardHeader title="Teams based here" subtitle={items.length ? `${items.length}${teams.hasNextPage ? '+' : ''} ${plural(items.length, 'team')}` : undefined} />
      </div>
      {teams.isPending ? (
        <ListSkeleton rows={2} />
      ) : teams.isError ? (
        <div className="card__pad">
          <Alert action={<button className="link-btn" onClick={() => void teams.refetch()}>Retry</button>}>{errorMessage(teams.error)}</Alert>
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={<TeamIcon size={26} />} title="No teams call this rink home yet" action={<ButtonLink to={`/teams/new?facilityId=${encodeURIComponent(facilityId)}`} size="sm">Start a team here</ButtonLink>} />
      ) : (
        <>
          <ul className="list list--compact">
            {items.map((t) => (
              <ListRow
                key={t.id}
                to={`/teams/${t.id}`}
                testId={`facility-team-${t.id}`}
                media={<Avatar name={t.name} src={t.logoUrl} size="sm" square />}
                title={t.name}
                subtitle={`${formatCount(t.followerCount)} ${plural(t.followerCount, 'follower')}`}
              />
            ))}
          </ul>
          <LoadMore hasMore={teams.hasNextPage} loading={teams.isFetchingNextPage} onLoadMore={() => void teams.fetchNextPage()} />
        </>
      )}
    </Card>
  );
}
