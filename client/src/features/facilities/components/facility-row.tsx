import type { Facility } from '../../../lib/api-types';
import { Avatar } from '../../../components/ui/avatar';
import { FollowButton } from '../../../components/ui/follow-button';
import { ListRow } from '../../../components/ui/list-row';
import { formatCount, plural } from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';

export function FacilityRow({ facility }: { facility: Facility }) {
  const follow = useFollowToggle('facilities', facility);
  return (
    <ListRow
      to={`/facilities/${facility.id}`}
      testId={`facility-row-${facility.id}`}
      media={<Avatar name={facility.name} src={facility.imageUrl} square />}
      title={facility.name}
      subtitle={`${formatCount(follow.followerCount)} ${plural(follow.followerCount, 'follower')} · ${facility.timezone.replace(/_/g, ' ')}`}
      meta={facility.description ?? undefined}
      action={<FollowButton size="sm" subject={facility.name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />}
    />
  );
}
