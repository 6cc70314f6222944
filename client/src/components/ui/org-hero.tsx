// The top of a facility's or a team's page: banner, picture, name, the
// viewer's role, the follower count with follow/unfollow, and the page's own
// actions (edit, and whatever else the page offers) before the follow button.

import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import type { StaffRole } from '../../lib/api-types';
import { formatCount, plural } from '../../lib/format';
import type { FollowToggle } from '../../lib/use-follow-toggle';
import { Alert } from './alert';
import { Avatar } from './avatar';
import { Card } from './card';
import { FollowButton } from './follow-button';
import { RoleTag } from './org-layout';

export interface OrgHeroProps {
  /** What it is, above the name: "Facility", "Team". */
  eyebrow: string;
  /** The banner's look: `entity-hero__banner--{banner}`. */
  banner: 'rink' | 'team';
  name: string;
  imageSrc: string | null;
  viewerRole: StaffRole | null;
  follow: FollowToggle;
  /** The test id of the follower count. */
  followerCountTestId: string;
  /** More of the meta line, after "N followers". */
  meta?: ReactNode;
  /** The page's buttons, before the follow button. */
  actions?: ReactNode;
}

export function OrgHero({ eyebrow, banner, name, imageSrc, viewerRole, follow, followerCountTestId, meta, actions }: OrgHeroProps) {
  return (
    <Card padded={false} className="entity-hero">
      <div className={`entity-hero__banner entity-hero__banner--${banner}`} aria-hidden="true" />
      <div className="entity-hero__body">
        <Avatar name={name} src={imageSrc} size="xl" square />
        <div className="entity-hero__text">
          <p className="page-header__eyebrow">
            {eyebrow}
            {viewerRole && <RoleTag>{viewerRole === 'OWNER' ? 'You own it' : 'You manage it'}</RoleTag>}
          </p>
          <h1 className="entity-hero__name">{name}</h1>
          <p className="entity-hero__meta">
            <span data-testid={followerCountTestId}>{formatCount(follow.followerCount)}</span> {plural(follow.followerCount, 'follower')}
            {meta}
          </p>
        </div>
        <div className="entity-hero__actions org-hero-actions">
          {actions}
          <FollowButton subject={name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />
        </div>
      </div>
      {follow.error && (
        <div className="card__pad">
          <Alert>{errorMessage(follow.error)}</Alert>
        </div>
      )}
    </Card>
  );
}
