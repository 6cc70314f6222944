import { useCallback, useRef, useState } from 'react';
import { useDismiss } from '../lib/use-dismiss';
import { Link, useLocation } from 'react-router';
import { useAuth, useCurrentUser } from '../lib/auth/auth-context';
import { displayName, handle } from '../lib/format';
import { Avatar } from '../components/ui/avatar';
import { EditIcon, LogOutIcon, UserIcon } from '../components/ui/icons';

export function UserMenu() {
  const me = useCurrentUser();
  const { signOut } = useAuth();
  const [open, setOpen] = useState(false);
  const closeMenu = useCallback(() => setOpen(false), []);
  const ref = useRef<HTMLDivElement>(null);
  const location = useLocation();
  const name = displayName(me);

  // Going to another page closes the menu.
  const [openedOn, setOpenedOn] = useState(location.pathname);
  if (openedOn !== location.pathname) {
    setOpenedOn(location.pathname);
    setOpen(false);
  }

  useDismiss(open, ref, closeMenu);

  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-menu__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Account menu for ${name}`}
        onClick={() => setOpen((o) => !o)}
        data-testid="user-menu"
      >
        <Avatar name={name} src={me.profileImage} size="sm" />
      </button>
      {open && (
        <div className="user-menu__panel" role="menu">
          <div className="user-menu__head">
            <strong>{name}</strong>
            {handle(me) && <span className="muted">{handle(me)}</span>}
          </div>
          <Link role="menuitem" to={`/users/${me.id}`} className="user-menu__item" data-testid="menu-my-profile">
            <UserIcon size={18} /> My profile
          </Link>
          <Link role="menuitem" to="/settings/profile" className="user-menu__item">
            <EditIcon size={18} /> Edit profile
          </Link>
          <button role="menuitem" type="button" className="user-menu__item" onClick={() => void signOut()} data-testid="sign-out">
            <LogOutIcon size={18} /> Sign out
          </button>
        </div>
      )}
    </div>
  );
}
