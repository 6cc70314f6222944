import { useState } from 'react';
import { Button } from './button';
import { CheckIcon, PlusIcon } from './icons';

export interface FollowButtonProps {
  isFollowing: boolean;
  pending?: boolean;
  onToggle: () => void;
  size?: 'sm' | 'md';
  /** Who or what is followed, for screen readers ("Follow Alice Ames"). */
  subject: string;
}

export function FollowButton({ isFollowing, pending, onToggle, size = 'md', subject }: FollowButtonProps) {
  // Right after following, the pointer is still on the button: keep saying
  // "Following" until it leaves, instead of flipping straight to "Unfollow".
  const [fresh, setFresh] = useState(false);
  return (
    <Button
      variant={isFollowing ? 'secondary' : 'primary'}
      size={size}
      className={`follow-btn${isFollowing ? ' follow-btn--following' : ''}${fresh ? ' follow-btn--fresh' : ''}`}
      onClick={() => {
        setFresh(true);
        onToggle();
      }}
      onMouseLeave={() => setFresh(false)}
      disabled={pending}
      aria-pressed={isFollowing}
      aria-label={`${isFollowing ? 'Unfollow' : 'Follow'} ${subject}`}
      data-testid="follow-button"
      icon={isFollowing ? <CheckIcon size={16} /> : <PlusIcon size={16} />}
    >
      <span className="follow-btn__idle">{isFollowing ? 'Following' : 'Follow'}</span>
      {isFollowing && <span className="follow-btn__hover">Unfollow</span>}
    </Button>
  );
}
