import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { AppRoutes } from './app-routes';
import { makePublicUser, makeUser } from '../testing/fixtures';
import { mockApi } from '../testing/mock-api';
import { renderWithProviders } from '../testing/render';

describe('AppRoutes', () => {
  it('shows the sign-in screen when signed out', () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { user: null });
    expect(screen.getByTestId('dev-sign-in')).toBeInTheDocument();
  });

  it('sends a user who has not finished onboarding to onboarding, whatever the URL', () => {
    mockApi({ 'GET /me/positions': [] });
    renderWithProviders(<AppRoutes />, { user: makeUser({ onboardingComplete: false }), route: '/teams' });
    expect(screen.getByRole('heading', { name: /welcome to rinkside/i })).toBeInTheDocument();
    expect(screen.queryByTestId('connection-indicator')).not.toBeInTheDocument();
  });

  it('renders the shell with the live indicator and the requested page once onboarded', async () => {
    mockApi({ 'GET /users/u-bob': makePublicUser() });
    renderWithProviders(<AppRoutes />, { route: '/users/u-bob' });
    expect(screen.getByRole('link', { name: 'Rinkside home' })).toBeInTheDocument();
    expect(screen.getByTestId('connection-indicator')).toBeInTheDocument();
    expect(await screen.findByTestId('profile-name')).toHaveTextContent('Bob Burns');
  });

  it('loads a lazy page inside the shell, under the app navigation', async () => {
    mockApi({ 'GET /me/positions': [] });
    renderWithProviders(<AppRoutes />, { route: '/settings/profile' });
    expect(screen.getByRole('link', { name: 'Rinkside home' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Edit profile' })).toBeInTheDocument();
  });

  it('has a real not-found page', () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { route: '/no/such/page' });
    expect(screen.getByText('Off the ice')).toBeInTheDocument();
  });
});
