// What a visitor sees: the sign-in screen, onboarding until it is complete,
// then the app shell with its pages.

import { Navigate, Route, Routes } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';
import { errorMessage } from '../lib/api';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { OnboardingPage } from '../features/profile/components/onboarding-page';
import { EditProfilePage } from '../features/profile/components/edit-profile-page';
import { HomePage } from '../features/home/components/home-page';
import { PeopleSearchPage } from '../features/users/components/people-search-page';
import { UserProfilePage } from '../features/users/components/user-profile-page';
import { FollowListPage } from '../features/users/components/follow-list-page';
import { FacilitiesPage } from '../features/facilities/components/facilities-page';
import { FacilityPage } from '../features/facilities/components/facility-page';
import { CreateFacilityPage, EditFacilityPage } from '../features/facilities/components/facility-form-page';
import { NewSeasonPage } from '../features/facilities/components/new-season-page';
import { TeamsPage } from '../features/teams/components/teams-page';
import { TeamPage } from '../features/teams/components/team-page';
import { CreateTeamPage, EditTeamPage } from '../features/teams/components/team-form-page';
import { NewRosterPage } from '../features/teams/components/new-roster-page';
import { RosterPage } from '../features/rosters/components/roster-page';
import { RosterEditPage } from '../features/rosters/components/roster-edit-page';
import { SeasonPage } from '../features/seasons/components/season-page';
import { SeasonEditPage } from '../features/seasons/components/season-edit-page';
import { EventsPage } from '../features/events/components/events-page';
import { EventPage } from '../features/events/components/event-page';
import { CreateEventPage, EditEventPage } from '../features/events/components/event-form-page';
import { GamePage } from '../features/games/components/game-page';
import { ScorekeeperConsolePage } from '../features/games/components/console-page';
import { SeasonGamesPage } from '../features/games/components/season-games-page';
import { TeamSchedulePage } from '../features/games/components/team-schedule-page';
import { PlayerStatsPage } from '../features/games/components/player-stats-page';
import { GameDisplayPage } from '../features/display/components/game-display-page';
import { SeasonDisplayPage } from '../features/display/components/season-display-page';
import { Button } from '../components/ui/button';
import { Logo } from '../components/ui/logo';
import { NotFoundPage } from './not-found-page';
import { Shell } from './shell';
import { Splash } from './splash';

export function AppRoutes() {
  return (
    <Routes>
      {/* Arena displays run signed out on a rink's screen: before the auth gate. */}
      <Route path="display/game/:id" element={<GameDisplayPage />} />
      <Route path="display/season/:id" element={<SeasonDisplayPage />} />
      <Route path="*" element={<GatedRoutes />} />
    </Routes>
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
  if (status === 'signed-out' || !user) return <SignInPage />;
  if (!user.onboardingComplete) return <OnboardingPage />;

  return (
    <Routes>
      {/* The score keeper's console takes the whole phone screen: no app navigation to hit by mistake. */}
      <Route path="games/:id/score" element={<ScorekeeperConsolePage />} />
      <Route element={<Shell />}>
        <Route index element={<HomePage />} />
        <Route path="people" element={<PeopleSearchPage />} />
        <Route path="me" element={<Navigate to={`/users/${user.id}`} replace />} />
        <Route path="settings/profile" element={<EditProfilePage />} />
        <Route path="users/:id" element={<UserProfilePage />} />
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
        <Route path="teams/:id" element={<TeamPage />} />
        <Route path="teams/:id/edit" element={<EditTeamPage />} />
        <Route path="teams/:id/rosters/new" element={<NewRosterPage />} />
        <Route path="rosters/:id" element={<RosterPage />} />
        <Route path="rosters/:id/edit" element={<RosterEditPage />} />
        <Route path="seasons/:id" element={<SeasonPage />} />
        <Route path="seasons/:id/edit" element={<SeasonEditPage />} />
        <Route path="events" element={<EventsPage />} />
        <Route path="events/new" element={<CreateEventPage />} />
        <Route path="events/:id" element={<EventPage />} />
        <Route path="events/:id/edit" element={<EditEventPage />} />
        <Route path="games/:id" element={<GamePage />} />
        <Route path="seasons/:id/games" element={<SeasonGamesPage />} />
        <Route path="teams/:id/schedule" element={<TeamSchedulePage />} />
        <Route path="users/:id/stats" element={<PlayerStatsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
