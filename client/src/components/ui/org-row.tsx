// A facility or a team in a list: picture, name, follower count (and
// whatever the list adds), its description, and a follow button.

import { formatCount, plural } from '../../lib/format';
import { useFollowToggle } from '../../lib/use-follow-toggle';
import type { OrgKind } from '../../lib/orgs';
import { Avatar } from './avatar';
import { FollowButton } from './follow-button';
import { ListRow } from './list-row';

export interface OrgRowProps {
  kind: OrgKind;
  org: { id: string; name: string; description: string | null; isFollowing: boolean; followerCount: number };
  imageSrc: string | null;
  testId: string;
  /** After "N followers" in the subtitle, e.g. the rink's time zone. */
  detail?: string;
}

export function OrgRow({ kind, org, imageSrc, testId, detail }: OrgRowProps) {
  const follow = useFollowToggle(kind, org);
  const followers = `${formatCount(follow.followerCount)} ${plural(follow.followerCount, 'follower')}`;
  return (
    <ListRow
      to={`/${kind}/${org.id}`}
      testId={testId}
      media={<Avatar name={org.name} src={imageSrc} square />}
      title={org.name}
      subtitle={detail === undefined ? followers : `${followers} · ${detail}`}
      meta={org.description ?? undefined}
      action={<FollowButton size="sm" subject={org.name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />}
    />
  );
}
