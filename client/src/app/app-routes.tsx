// What a visitor sees: the sign-in screen, onboarding until it is complete,
// then the app shell with its pages. An invite (`/invite/:code`) is the
// one app page a signed-out visitor may open; its "sign in" goes through
// `/sign-in?next=…`, which comes back to it once signed in and onboarded.

import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes, useLocation, useSearchParams } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';
import { safeReturnTo } from '../lib/auth/return-to';
import { errorMessage } from '../lib/api';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { OnboardingPage } from '../features/profile/components/onboarding-page';
import { HomePage } from '../features/home/components/home-page';
import { PeopleSearchPage } from '../features/users/components/people-search-page';
import { UserProfilePage } from '../features/users/components/user-profile-page';
import { FollowListPage } from '../features/users/components/follow-list-page';
import { FacilitiesPage } from '../features/facilities/components/facilities-page';
import { TeamsPage } from '../features/teams/components/teams-page';
import { EventsPage } from '../features/events/components/events-page';
import { FeedColumn } from '../features/feed/components/feed-column';
import { SubsPage } from '../features/subs/components/subs-page';
import { EventSubsCall } from '../features/subs/components/event-subs-call';
import { UserPosts } from '../features/feed/components/user-posts';
import { NextUp } from '../features/schedule/components/next-up';
import { PersonSchedule, TeamUpcoming } from '../features/schedule/components/public-schedule';
import { ChatsPage } from '../features/chats/components/chats-page';
import { EventChatButton, TeamChatCard } from '../features/chats/components/chat-entry';
import { Button } from '../components/ui/button';
import { Logo } from '../components/ui/logo';
import { NotFoundPage } from './not-found-page';
import { PageLoadBoundary, PageLoadError } from './page-load-boundary';
import { Shell } from './shell';
import { Splash } from './splash';

/** A page whose code loads, as its own chunk, the first time it is shown: React.lazy for a named export. */
function lazyPage<P>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    load().then(
      (page) => ({ default: page }),
      (err: unknown) => {
        throw new PageLoadError(err);
      },
    ),
  );
}

// Full-screen pages away from the app's daily paths: arena displays and the score keeper's console.
const GameDisplayPage = lazyPage(() => import('../features/display/components/game-display-page').then((m) => m.GameDisplayPage));
const SeasonDisplayPage = lazyPage(() => import('../features/display/components/season-display-page').then((m) => m.SeasonDisplayPage));
const LobbyDisplayPage = lazyPage(() => import('../features/display/components/lobby-display-page').then((m) => m.LobbyDisplayPage));
const ScorekeeperConsolePage = lazyPage(() => import('../features/games/components/console-page').then((m) => m.ScorekeeperConsolePage));

// Detail and editor pages: each loads when first visited; the main navigation's pages stay in the entry chunk.
const EditProfilePage = lazyPage(() => import('../features/profile/components/edit-profile-page').then((m) => m.EditProfilePage));
const FacilityPage = lazyPage(() => import('../features/facilities/components/facility-page').then((m) => m.FacilityPage));
const CreateFacilityPage = lazyPage(() => import('../features/facilities/components/facility-form-page').then((m) => m.CreateFacilityPage));
const EditFacilityPage = lazyPage(() => import('../features/facilities/components/facility-form-page').then((m) => m.EditFacilityPage));
const NewSeasonPage = lazyPage(() => import('../features/facilities/components/new-season-page').then((m) => m.NewSeasonPage));
const TeamPage = lazyPage(() => import('../features/teams/components/team-page').then((m) => m.TeamPage));
const CreateTeamPage = lazyPage(() => import('../features/teams/components/team-form-page').then((m) => m.CreateTeamPage));
const EditTeamPage = lazyPage(() => import('../features/teams/components/team-form-page').then((m) => m.EditTeamPage));
const NewRosterPage = lazyPage(() => import('../features/teams/components/new-roster-page').then((m) => m.NewRosterPage));
const RosterPage = lazyPage(() => import('../features/rosters/components/roster-page').then((m) => m.RosterPage));
const RosterEditPage = lazyPage(() => import('../features/rosters/components/roster-edit-page').then((m) => m.RosterEditPage));
const SeasonPage = lazyPage(() => import('../features/seasons/components/season-page').then((m) => m.SeasonPage));
const LeagueTeamsPage = lazyPage(() => import('../features/seasons/components/league-teams-page').then((m) => m.LeagueTeamsPage));
const SeasonEditPage = lazyPage(() => import('../features/seasons/components/season-edit-page').then((m) => m.SeasonEditPage));
const EventPage = lazyPage(() => import('../features/events/components/event-page').then((m) => m.EventPage));
const CreateEventPage = lazyPage(() => import('../features/events/components/event-form-page').then((m) => m.CreateEventPage));
const EditEventPage = lazyPage(() => import('../features/events/components/event-form-page').then((m) => m.EditEventPage));
const CheckInPage = lazyPage(() => import('../features/events/components/check-in-page').then((m) => m.CheckInPage));
const SeriesPage = lazyPage(() => import('../features/events/components/series-page').then((m) => m.SeriesPage));
const GamePage = lazyPage(() => import('../features/games/components/game-page').then((m) => m.GamePage));
const SeasonGamesPage = lazyPage(() => import('../features/games/components/season-games-page').then((m) => m.SeasonGamesPage));
const TeamSchedulePage = lazyPage(() => import('../features/games/components/team-schedule-page').then((m) => m.TeamSchedulePage));
const MySchedulePage = lazyPage(() => import('../features/schedule/components/my-schedule-page').then((m) => m.MySchedulePage));
const NotificationsPage = lazyPage(() => import('../features/notifications/components/notifications-page').then((m) => m.NotificationsPage));
const InvitePage = lazyPage(() => import('../features/invites/components/invite-page').then((m) => m.InvitePage));
// The invite card (with its QR code library) loads with the first roster or event page that shows it, not with the app.
const InviteCard = lazyPage(() => import('../features/invites/components/invite-card').then((m) => m.InviteCard));
const PlayerStatsPage = lazyPage(() => import('../features/games/components/player-stats-page').then((m) => m.PlayerStatsPage));

export function AppRoutes() {
  const { pathname } = useLocation();
  // Lazy pages outside the shell (the displays, the console) load full screen.
  return (
    <PageLoadBoundary fullScreen resetKey={pathname}>
      <Suspense fallback={<Splash />}>
        <Routes>
          {/* Arena displays run signed out on a rink's screen: before the auth gate. */}
          <Route path="display/game/:id" element={<GameDisplayPage />} />
          <Route path="display/season/:id" element={<SeasonDisplayPage />} />
          <Route path="display/facility/:id/subs" element={<LobbyDisplayPage />} />
          <Route path="*" element={<GatedRoutes />} />
        </Routes>
      </Suspense>
    </PageLoadBoundary>
  );
}

function GatedRoutes() {
  const { status, user, error, refreshUser, signOut } = useAuth();

  if (status === 'loading') return <Splash />;
  if (status === 'error') {
    return (
      <div className="splash">
        <Logo />
        <h1 className="splash__title">Can't reach Rinkside</h1>
        <p className="muted">{errorMessage(error)}</p>
        <div className="row">
          <Button onClick={() => void refreshUser()}>Try again</Button>
          <Button variant="ghost" onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
      </div>
    );
  }
  if (status === 'signed-out' || !user) {
    return (
      <Routes>
        <Route path="invite/:code" element={<InvitePage />} />
        <Route path="*" element={<SignInPage />} />
      </Routes>
    );
  }
  if (!user.onboardingComplete) return <OnboardingPage />;

  return (
    <Routes>
      {/* The score keeper's console takes the whole phone screen: no app navigation to hit by mistake. */}
      <Route path="games/:id/score" element={<ScorekeeperConsolePage />} />
      {/* Signed in (and onboarded) at last: on to where the sign-in was asked for. */}
      <Route path="sign-in" element={<ReturnAfterSignIn />} />
      <Route element={<Shell />}>
        <Route index element={<HomePage feed={<FeedColumn />} nextUp={<NextUp />} />} />
        <Route path="schedule" element={<MySchedulePage />} />
        <Route path="people" element={<PeopleSearchPage />} />
        <Route path="notifications" element={<NotificationsPage />} />
        <Route path="chats" element={<ChatsPage />} />
        <Route path="chats/:id" element={<ChatsPage />} />
        <Route path="me" element={<Navigate to={`/users/${user.id}`} replace />} />
        <Route path="settings/profile" element={<EditProfilePage />} />
        <Route
          path="users/:id"
          element={<UserProfilePage renderPosts={(who) => <UserPosts {...who} />} renderSchedule={(who) => <PersonSchedule userId={who.userId} name={who.name} />} />}
        />
        <Route path="users/:id/followers" element={<FollowListPage kind="followers" />} />
        <Route path="users/:id/following" element={<FollowListPage kind="following" />} />
        <Route path="users/:id/following/facilities" element={<FollowListPage kind="facilities" />} />
        <Route path="users/:id/following/teams" element={<FollowListPage kind="teams" />} />
        <Route path="facilities" element={<FacilitiesPage />} />
        <Route path="facilities/new" element={<CreateFacilityPage />} />
        <Route path="facilities/:id" element={<FacilityPage />} />
        <Route path="facilities/:id/edit" element={<EditFacilityPage />} />
        <Route path="facilities/:id/seasons/new" element={<NewSeasonPage />} />
        <Route path="teams" element={<TeamsPage />} />
        <Route path="teams/new" element={<CreateTeamPage />} />
        <Route path="teams/:id" element={<TeamPage renderUpcoming={(teamId) => <TeamUpcoming teamId={teamId} />} />} />
        <Route path="teams/:id/edit" element={<EditTeamPage />} />
        <Route path="teams/:id/rosters/new" element={<NewRosterPage />} />
        <Route
          path="rosters/:id"
          element={
            <RosterPage
              renderTeamChat={(rosterId) => <TeamChatCard rosterId={rosterId} />}
              renderInvites={(p) => (
                <Suspense fallback={null}>
                  <InviteCard target={{ kind: 'ROSTER', id: p.rosterId }} name={p.name} version={p.version} />
                </Suspense>
              )}
            />
          }
        />
        <Route path="rosters/:id/edit" element={<RosterEditPage />} />
        <Route path="seasons/:id" element={<SeasonPage />} />
        <Route path="seasons/:id/edit" element={<SeasonEditPage />} />
        <Route path="seasons/:id/teams" element={<LeagueTeamsPage />} />
        <Route path="events" element={<EventsPage />} />
        <Route path="events/new" element={<CreateEventPage />} />
        <Route
          path="events/:id"
          element={
            <EventPage
              renderSubsCall={(p) => <EventSubsCall {...p} />}
              renderChat={(eventId) => <EventChatButton eventId={eventId} />}
              renderInvites={(p) => (
                <Suspense fallback={null}>
                  <InviteCard target={{ kind: 'EVENT', id: p.eventId }} name={p.name} version={p.version} />
                </Suspense>
              )}
            />
          }
        />
        <Route path="events/:id/edit" element={<EditEventPage />} />
        <Route path="events/:id/check-in" element={<CheckInPage />} />
        <Route path="series/:id" element={<SeriesPage />} />
        <Route path="subs" element={<SubsPage />} />
        <Route path="games/:id" element={<GamePage />} />
        <Route path="seasons/:id/games" element={<SeasonGamesPage />} />
        <Route path="teams/:id/schedule" element={<TeamSchedulePage />} />
        <Route path="users/:id/stats" element={<PlayerStatsPage />} />
        <Route path="invite/:code" element={<InvitePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** `/sign-in?next=…` once signed in: on to `next` when it is a path of ours, else home. */
function ReturnAfterSignIn() {
  const [params] = useSearchParams();
  return <Navigate to={safeReturnTo(params.get('next'))} replace />;
}
