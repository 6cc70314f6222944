// /facilities/:id — the rink: details, its seasons, the teams based there,
// its staff and followers. Staff edit it and start seasons; the owner also
// manages the staff and can delete it (from the edit page).

import { useSyncExternalStore } from 'react';
import { Link, useParams } from 'react-router';
import { UPCOMING_AT_RINK, useFacilitySeasons, useFacilityTeams, useTransferFacility, useUpcomingAtFacility } from '../api/facilities';
import { useFacility } from '../../../lib/facilities';
import { EventCard } from '../../../components/ui/event-card';
import { errorMessage } from '../../../lib/api';
import type { FacilityPage as FacilityPageData, SeasonDetail } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { displayName, formatCount, plural } from '../../../lib/format';
import { usePerson } from '../../../lib/orgs';
import { useFollowToggle } from '../../../lib/use-follow-toggle';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { CalendarIcon, ClockIcon, EditIcon, GlobeIcon, MailIcon, PhoneIcon, PlusIcon, RinkIcon, TeamIcon } from '../../../components/ui/icons';
import { ListRow, ListSkeleton } from '../../../components/ui/list-row';
import { LoadMore } from '../../../components/ui/load-more';
import { formatDayRange, formatIn, isZone, zoneName, zoneOffsetName } from '../../../lib/time-zone';
import { OrgHero } from '../../../components/ui/org-hero';
import { ActiveChip, IconTile, OrgLayout, RowTitle } from '../../../components/ui/org-layout';
import { OrgLoadState } from '../../../components/ui/org-load-state';
import { OrgPeopleCards } from '../../../components/ui/org-people-cards';

export const LOAD_COPY = {
  loadingLabel: 'Loading facility',
  notFoundTitle: 'This rink is not on Rinkside',
  errorTitle: 'Could not load this facility',
  listHref: '/facilities',
  listLabel: 'All facilities',
};

export function FacilityPage() {
  const { id = '' } = useParams();
  const query = useFacility(id, { fresh: true });
  if (query.isPending || query.isError) {
    return <OrgLoadState query={query} icon={<RinkIcon size={28} />} copy={LOAD_COPY} />;
  }
  return <FacilityView key={query.data.id} facility={query.data} />;
}

/** The time now at the rink ('' for a zone this browser cannot read). */
function timeIn(tz: string): string {
  return isZone(tz) ? formatIn(Date.now(), tz, { hour: 'numeric', minute: '2-digit' }) : '';
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
  const follow = useFollowToggle('facilities', facility, { live: true });
  const owner = usePerson(facility.ownerId);
  const localTime = useLocalTime(facility.timezone);
  const transfer = useTransferFacility(facility.id);
  const isStaff = facility.viewerRole !== null;

  return (
    <div className="stack-lg" data-testid="facility-page">
      <OrgHero
        eyebrow="Facility"
        banner="rink"
        name={facility.name}
        imageSrc={facility.imageUrl}
        viewerRole={facility.viewerRole}
        follow={follow}
        followerCountTestId="facility-follower-count"
        meta={
          owner.data && (
            <>
              {' · Run by '}
              <Link to={`/users/${owner.data.id}`}>{owner.data.id === myId ? 'you' : displayName(owner.data)}</Link>
            </>
          )
        }
        actions={
          <>
            {isStaff && (
              <ButtonLink to={`/facilities/${facility.id}/edit`} variant="secondary" icon={<EditIcon size={16} />} data-testid="edit-facility">
                Edit
              </ButtonLink>
            )}
            <ButtonLink to={`/teams/new?facilityId=${encodeURIComponent(facility.id)}`} variant="secondary" icon={<PlusIcon size={16} />}>
              New team here
            </ButtonLink>
          </>
        }
      />

      <OrgLayout
        main={
          <>
            <UpcomingSkatesCard facility={facility} />
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
                  {zoneName(facility.timezone)} <span className="muted">({zoneOffsetName(facility.timezone)}{localTime ? `, now ${localTime}` : ''})</span>
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
          <OrgPeopleCards
            kind="facilities"
            noun="facility"
            org={facility}
            myId={myId}
            followerCount={follow.followerCount}
            onTransfer={(userId) => transfer.mutateAsync(userId)}
          />
          </>
        }
      />
    </div>
  );
}

/** "Upcoming skates": the events the rink lists, soonest first (the event page promises it). */
function UpcomingSkatesCard({ facility }: { facility: FacilityPageData }) {
  const upcoming = useUpcomingAtFacility(facility.id);
  const items = upcoming.data?.items ?? [];
  const more = Boolean(upcoming.data?.nextCursor);
  const allHere = `/events?facilityId=${encodeURIComponent(facility.id)}`;
  return (
    <Card padded={false} data-testid="facility-upcoming">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Upcoming skates"
          action={
            more ? (
              <ButtonLink to={allHere} size="sm" variant="ghost">
                All events here
              </ButtonLink>
            ) : undefined
          }
        />
      </div>
      {upcoming.isPending ? (
        <ListSkeleton rows={2} />
      ) : upcoming.isError ? (
        <div className="card__pad">
          <Alert>{errorMessage(upcoming.error)}</Alert>
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={<CalendarIcon size={28} />} title="Nothing on the schedule">
          Skates and games {facility.name} lists show up here.
        </EmptyState>
      ) : (
        <ul className="facility-upcoming" aria-label={`Next ${UPCOMING_AT_RINK} at ${facility.name}`}>
          {items.map((e) => (
            <li key={e.id}>
              <EventCard event={e} place={e.location ?? facility.name} compact testId={`facility-event-${e.id}`} />
            </li>
          ))}
        </ul>
      )}
    </Card>
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
