import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { usePerson } from '../../../lib/orgs';
import { useAuth } from '../../../lib/auth/auth-context';
import { ApiError, errorMessage } from '../../../lib/api';
import type { PlayerPosition, PublicUser } from '../../../lib/api-types';
import {
  displayName,
  formatCount,
  handle,
  memberSince,
  plural,
  POSITION_LABELS,
  POSITION_SHORT,
  PROFILE_TYPE_LABELS,
  SKILL_LABELS,
} from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';
import { Avatar } from '../../../components/ui/avatar';
import { ButtonLink, Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Chip } from '../../../components/ui/chip';
import { EmptyState } from '../../../components/ui/empty-state';
import { FollowButton } from '../../../components/ui/follow-button';
import { Alert } from '../../../components/ui/alert';
import { ClockIcon, EditIcon, StarIcon, UserIcon } from '../../../components/ui/icons';
import { PageSpinner } from '../../../components/ui/spinner';
import '../users.css';

/** What a profile shows of a person's posts (the feed feature's list, composed in app/). */
export type RenderPosts = (who: { userId: string; name: string; isMe: boolean }) => ReactNode;

/** What a profile shows of a person's schedule: their teams' games and events (the schedule feature's, composed in app/). */
export type RenderSchedule = (who: { userId: string; name: string; isMe: boolean }) => ReactNode;

export function UserProfilePage({ renderPosts, renderSchedule }: { renderPosts?: RenderPosts; renderSchedule?: RenderSchedule }) {
  const { id = '' } = useParams();
  const query = usePerson(id);

  if (query.isPending) return <PageSpinner label="Loading profile" />;
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Card>
        <EmptyState
          icon={<UserIcon size={28} />}
          title={notFound ? 'No one skates under that name' : 'Could not load this profile'}
          action={
            notFound ? (
              <ButtonLink to="/people">Find people</ButtonLink>
            ) : (
              <Button variant="secondary" onClick={() => void query.refetch()}>
                Try again
              </Button>
            )
          }
        >
          {notFound ? 'The profile may have been removed.' : errorMessage(query.error)}
        </EmptyState>
      </Card>
    );
  }
  return <Profile user={query.data} renderPosts={renderPosts} renderSchedule={renderSchedule} />;
}

function Profile({ user, renderPosts, renderSchedule }: { user: PublicUser; renderPosts?: RenderPosts; renderSchedule?: RenderSchedule }) {
  const { user: me } = useAuth();
  const isMe = me?.id === user.id;
  const follow = useFollowToggle('users', user, { live: true });
  const name = displayName(user);
  const at = handle(user);
  // My own page shows my live counts (following changes when I follow others).
  const followingCount = follow.followingCount ?? (isMe && me ? me.followingCount : user.followingCount);

  return (
    <div className="stack-lg" data-testid="user-profile">
      <Card padded={false} className="profile-hero">
        <div className="profile-hero__banner" aria-hidden="true" />
        <div className="profile-hero__body">
          <div className="profile-hero__top">
            <Avatar name={name} src={user.profileImage} size="xl" />
            <div className="profile-hero__actions">
              {isMe ? (
                <ButtonLink to="/settings/profile" variant="secondary" icon={<EditIcon size={16} />}>
                  Edit profile
                </ButtonLink>
              ) : (
                <FollowButton subject={name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />
              )}
            </div>
          </div>
          <h1 className="profile-hero__name" data-testid="profile-name">
            {name}
          </h1>
          <p className="profile-hero__handle">
            {at && <span>{at}</span>}
            {memberSince(user.createdAt) && (
              <span className="profile-hero__joined">
                <ClockIcon size={14} /> Joined {memberSince(user.createdAt)}
              </span>
            )}
          </p>
          {user.profileTypes.length > 0 && (
            <div className="chip-row">
              {user.profileTypes.map((t) => (
                <Chip key={t} tone="accent">
                  {PROFILE_TYPE_LABELS[t]}
                </Chip>
              ))}
            </div>
          )}
          {user.bio && <p className="profile-hero__bio">{user.bio}</p>}
          <div className="stats">
            <Link to={`/users/${user.id}/followers`} className="stat">
              <span className="stat__value" data-testid="follower-count">
                {formatCount(follow.followerCount)}
              </span>
              <span className="stat__label">{plural(follow.followerCount, 'Follower')}</span>
            </Link>
            <Link to={`/users/${user.id}/following`} className="stat">
              <span className="stat__value" data-testid="following-count">
                {formatCount(followingCount)}
              </span>
              <span className="stat__label">Following</span>
            </Link>
          </div>
          {follow.error && <Alert>{errorMessage(follow.error)}</Alert>}
        </div>
      </Card>

      <PositionsCard positions={user.positions ?? []} isMe={isMe} name={name} />

      {renderSchedule?.({ userId: user.id, name, isMe })}

      {renderPosts?.({ userId: user.id, name, isMe })}
    </div>
  );
}

function PositionsCard({ positions, isMe, name }: { positions: PlayerPosition[]; isMe: boolean; name: string }) {
  const sorted = [...positions].sort((a, b) => Number(b.isPreferred) - Number(a.isPreferred));
  return (
    <Card>
      <CardHeader
        title="Positions"
        action={isMe ? <ButtonLink to="/settings/profile#positions" size="sm" variant="ghost">Manage</ButtonLink> : undefined}
      />
      {sorted.length === 0 ? (
        <p className="muted">{isMe ? 'Add the positions you play so captains can find you.' : `${name} hasn't listed any positions yet.`}</p>
      ) : (
        <ul className="position-grid">
          {sorted.map((p) => (
            <li key={p.id} className={`position-tile${p.isPreferred ? ' position-tile--preferred' : ''}`}>
              <span className="position-tile__badge">{POSITION_SHORT[p.position]}</span>
              <span className="position-tile__text">
                <span className="position-tile__name">{POSITION_LABELS[p.position]}</span>
                <span className="position-tile__skill">{SKILL_LABELS[p.skillLevel]}</span>
              </span>
              {p.isPreferred && (
                <span className="position-tile__star" title="Preferred position">
                  <StarIcon size={16} filled />
                  <span className="sr-only">Preferred</span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
