import { useParams } from 'react-router';
import { useHomeFacility, useTeam, useTeamFollowers } from '../api/teams';
import { ApiError, errorMessage } from '../../../lib/api';
import type { Team } from '../../../lib/api-types';
import { formatCount, memberSince, plural } from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';
import { Alert } from '../../../components/ui/alert';
import { Avatar } from '../../../components/ui/avatar';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { FollowButton } from '../../../components/ui/follow-button';
import { FollowersCard } from '../../../components/ui/followers-card';
import { RinkIcon, TeamIcon } from '../../../components/ui/icons';
import { ListRow } from '../../../components/ui/list-row';
import { PageSpinner } from '../../../components/ui/spinner';

export function TeamPage() {
  const { id = '' } = useParams();
  const query = useTeam(id);
  if (query.isPending) return <PageSpinner label="Loading team" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<TeamIcon size={28} />}
          title={notFound ? 'No such team' : 'Could not load this team'}
          action={notFound ? <ButtonLink to="/teams">All teams</ButtonLink> : <Button variant="secondary" onClick={() => void query.refetch()}>Try again</Button>}
        >
          {notFound ? 'It may have been removed.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <TeamView team={query.data} />;
}

function TeamView({ team }: { team: Team }) {
  const follow = useFollowToggle('teams', team);
  const home = useHomeFacility(team.facilityId);
  const followers = useTeamFollowers(team.id);

  return (
    <div className="stack-lg" data-testid="team-page">
      <Card padded={false} className="entity-hero">
        <div className="entity-hero__banner entity-hero__banner--team" aria-hidden="true" />
        <div className="entity-hero__body">
          <Avatar name={team.name} src={team.logoUrl} size="xl" square />
          <div className="entity-hero__text">
            <p className="page-header__eyebrow">Team</p>
            <h1 className="entity-hero__name">{team.name}</h1>
            <p className="entity-hero__meta">
              <span data-testid="team-follower-count">{formatCount(follow.followerCount)}</span> {plural(follow.followerCount, 'follower')}
              {memberSince(team.createdAt) && <> · Since {memberSince(team.createdAt)}</>}
            </p>
          </div>
          <div className="entity-hero__actions">
            <FollowButton subject={team.name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />
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
          {team.description ? <p className="prose">{team.description}</p> : <p className="muted">No description yet.</p>}
        </Card>
        <Card padded={false}>
          <div className="card__pad card__pad--header">
            <CardHeader title="Home rink" />
          </div>
          {!team.facilityId ? (
            <p className="muted card__pad">This team has no home rink yet.</p>
          ) : home.data ? (
            <ul className="list">
              <ListRow
                to={`/facilities/${home.data.id}`}
                media={<Avatar name={home.data.name} src={home.data.imageUrl} square />}
                title={home.data.name}
                subtitle={home.data.timezone.replace(/_/g, ' ')}
              />
            </ul>
          ) : home.isError ? (
            <p className="muted card__pad">The home rink could not be loaded.</p>
          ) : (
            <p className="muted card__pad">
              <RinkIcon size={16} /> Loading…
            </p>
          )}
        </Card>
      </div>
      <FollowersCard query={followers} count={follow.followerCount} emptyText="No followers yet. Be the first." />
    </div>
  );
}
