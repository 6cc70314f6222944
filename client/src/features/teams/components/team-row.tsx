import type { Team } from '../../../lib/api-types';
import { Avatar } from '../../../components/ui/avatar';
import { FollowButton } from '../../../components/ui/follow-button';
import { ListRow } from '../../../components/ui/list-row';
import { formatCount, plural } from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';

export function TeamRow({ team }: { team: Team }) {
  const follow = useFollowToggle('teams', team);
  return (
    <ListRow
      to={`/teams/${team.id}`}
      testId={`team-row-${team.id}`}
      media={<Avatar name={team.name} src={team.logoUrl} square />}
      title={team.name}
      subtitle={`${formatCount(follow.followerCount)} ${plural(follow.followerCount, 'follower')}`}
      meta={team.description ?? undefined}
      action={<FollowButton size="sm" subject={team.name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />}
    />
  );
}
