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
import { CreateFacilityPage } from '../features/facilities/components/create-facility-page';
import { TeamsPage } from '../features/teams/components/teams-page';
import { TeamPage } from '../features/teams/components/team-page';
import { CreateTeamPage } from '../features/teams/components/create-team-page';
import { EventsPage } from '../features/events/components/events-page';
import { EventPage } from '../features/events/components/event-page';
import { CreateEventPage, EditEventPage } from '../features/events/components/event-form-page';
import { Button } from '../components/ui/button';
import { Logo } from '../components/ui/logo';
import { NotFoundPage } from './not-found-page';
import { Shell } from './shell';
import { Splash } from './splash';

export function AppRoutes() {
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
        <Route path="teams" element={<TeamsPage />} />
        <Route path="teams/new" element={<CreateTeamPage />} />
        <Route path="teams/:id" element={<TeamPage />} />
        <Route path="events" element={<EventsPage />} />
        <Route path="events/new" element={<CreateEventPage />} />
        <Route path="events/:id" element={<EventPage />} />
        <Route path="events/:id/edit" element={<EditEventPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
