import type { PublicUser } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { Avatar } from '../../../components/ui/avatar';
import { FollowButton } from '../../../components/ui/follow-button';
import { ListRow } from '../../../components/ui/list-row';
import { displayName, handle, PROFILE_TYPE_LABELS } from '../../../lib/format';
import { useFollowToggle } from '../../../lib/use-follow-toggle';

export function UserRow({ user }: { user: PublicUser }) {
  const { user: me } = useAuth();
  const follow = useFollowToggle('users', user);
  const name = displayName(user);
  const isMe = me?.id === user.id;
  const types = user.profileTypes.map((t) => PROFILE_TYPE_LABELS[t]).join(' · ');
  return (
    <ListRow
      to={`/users/${user.id}`}
      testId={`user-row-${user.username ?? user.id}`}
      media={<Avatar name={name} src={user.profileImage} />}
      title={
        <>
          {name}
          {isMe && <span className="you-badge">You</span>}
        </>
      }
      subtitle={[handle(user), types].filter(Boolean).join(' · ') || undefined}
      action={
        isMe ? undefined : (
          <FollowButton size="sm" subject={name} isFollowing={follow.isFollowing} pending={follow.pending} onToggle={follow.toggle} />
        )
      }
    />
  );
}
