import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useFacility, useFacilityFollowers, usePerson } from '../api/facilities';
import { ApiError, errorMessage } from '../../../lib/api';
import type { Facility } from '../../../lib/api-types';
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
import { ClockIcon, GlobeIcon, MailIcon, PhoneIcon, PlusIcon, RinkIcon } from '../../../components/ui/icons';
import { PageSpinner } from '../../../components/ui/spinner';

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
  return <FacilityView facility={query.data} />;
}

function timeIn(tz: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: tz, hour: 'numeric', minute: '2-digit' }).format(new Date());
  } catch {
    return '';
  }
}

/** The wall-clock time at the rink, refreshed every half minute. */
function useLocalTime(tz: string) {
  const [now, setNow] = useState(() => timeIn(tz));
  useEffect(() => {
    setNow(timeIn(tz));
    const t = setInterval(() => setNow(timeIn(tz)), 30_000);
    return () => clearInterval(t);
  }, [tz]);
  return now;
}

function FacilityView({ facility }: { facility: Facility }) {
  const { user } = useAuth();
  const follow = useFollowToggle('facilities', facility);
  const owner = usePerson(facility.ownerId);
  const followers = useFacilityFollowers(facility.id);
  const localTime = useLocalTime(facility.timezone);
  const isOwner = user?.id === facility.ownerId;

  return (
    <div className="stack-lg" data-testid="facility-page">
      <Card padded={false} className="entity-hero">
        <div className="entity-hero__banner entity-hero__banner--rink" aria-hidden="true" />
        <div className="entity-hero__body">
          <Avatar name={facility.name} src={facility.imageUrl} size="xl" square />
          <div className="entity-hero__text">
            <p className="page-header__eyebrow">Facility</p>
            <h1 className="entity-hero__name">{facility.name}</h1>
            <p className="entity-hero__meta">
              <span data-testid="facility-follower-count">{formatCount(follow.followerCount)}</span> {plural(follow.followerCount, 'follower')}
              {owner.data && (
                <>
                  {' · Run by '}
                  <Link to={`/users/${owner.data.id}`}>{isOwner ? 'you' : displayName(owner.data)}</Link>
                </>
              )}
            </p>
          </div>
          <div className="entity-hero__actions">
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

      <div className="two-col">
        <Card>
          <CardHeader title="About" />
          {facility.description ? <p className="prose">{facility.description}</p> : <p className="muted">No description yet.</p>}
        </Card>
        <Card>
          <CardHeader title="Details" />
          <ul className="detail-list">
            <li>
              <ClockIcon size={18} />
              <span>
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
      </div>

      <FollowersCard query={followers} count={follow.followerCount} emptyText="No followers yet. Be the first." />
    </div>
  );
}
