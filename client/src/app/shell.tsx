import { Suspense, useEffect, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../lib/auth/auth-context';
import { Logo } from '../components/ui/logo';
import { RouteNotice } from '../components/ui/route-notice';
import { PageSpinner } from '../components/ui/spinner';
import { CalendarIcon, ChatIcon, ClockIcon, HomeIcon, PeopleIcon, RinkIcon, StickIcon, TeamIcon, UserIcon } from '../components/ui/icons';
import { ConnectionIndicator } from './connection-indicator';
import { PageLoadBoundary } from './page-load-boundary';
import { UserMenu } from './user-menu';
import { NotificationBell } from '../features/notifications/components/bell';
import { ChatOutbox } from '../features/chats/components/chat-outbox';
import { ChatsUnreadBadge } from '../features/chats/components/chats-unread-badge';

interface NavItem {
  to: string;
  label: string;
  /** The narrower label, when the full one does not fit: the bottom bar's, and the top bar's below 1100 px. */
  short?: string;
  icon: ReactNode;
  end?: boolean;
  /** Left out of the phone's bottom bar (reached from Home there), which holds six at most. */
  topOnly?: boolean;
  /** A live count beside the label (Messages: my unread chat messages). */
  badge?: ReactNode;
}

const NAV: NavItem[] = [
  { to: '/', label: 'Home', icon: <HomeIcon size={22} />, end: true },
  { to: '/schedule', label: 'My schedule', icon: <ClockIcon size={22} />, topOnly: true },
  { to: '/events', label: 'Events', icon: <CalendarIcon size={22} /> },
  { to: '/chats', label: 'Messages', icon: <ChatIcon size={22} />, badge: <ChatsUnreadBadge /> },
  { to: '/people', label: 'People', icon: <PeopleIcon size={22} /> },
  // On a phone, rinks are found from Home ("Browse rinks"): Messages takes the bar's place.
  { to: '/facilities', label: 'Facilities', icon: <RinkIcon size={22} />, topOnly: true },
  { to: '/teams', label: 'Teams', icon: <TeamIcon size={22} /> },
  { to: '/subs', label: 'Subs & teams', short: 'Subs', icon: <StickIcon size={22} /> },
];

export function Shell() {
  const me = useCurrentUser();
  const { pathname } = useLocation();

  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [pathname]);

  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar__inner">
          <Link to="/" className="topbar__brand" aria-label="Rinkside home">
            <Logo />
          </Link>
          <nav className="topnav" aria-label="Main">
            {NAV.map((item) => (
              <NavLink key={item.to} to={item.to} end={item.end} className="topnav__link">
                {item.short ? (
                  <>
                    <span className="topnav__label--full">{item.label}</span>
                    <span className="topnav__label--short">{item.short}</span>
                  </>
                ) : (
                  item.label
                )}
                {item.badge}
              </NavLink>
            ))}
          </nav>
          <div className="topbar__right">
            <ConnectionIndicator />
            <NotificationBell />
            <UserMenu />
          </div>
        </div>
      </header>
      {/* My chat messages that did not go out are sent again when the connection is back, whatever page is open. */}
      <ChatOutbox />
      <main id="main" className="main">
        <RouteNotice />
        {/* Pages that load lazily (app-routes.tsx) do it here, under the app's navigation. */}
        <PageLoadBoundary resetKey={pathname}>
          <Suspense fallback={<PageSpinner label="Loading page" />}>
            <Outlet />
          </Suspense>
        </PageLoadBoundary>
      </main>
      <nav className="bottomnav" aria-label="Main">
        {NAV.filter((item) => !item.topOnly).map((item) => (
          <NavLink key={item.to} to={item.to} end={item.end} className="bottomnav__link">
            {item.icon}
            <span>{item.short ?? item.label}</span>
            {item.badge}
          </NavLink>
        ))}
        <NavLink to={`/users/${me.id}`} className="bottomnav__link">
          <UserIcon size={22} />
          <span>Me</span>
        </NavLink>
      </nav>
    </div>
  );
}
