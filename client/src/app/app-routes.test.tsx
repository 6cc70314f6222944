import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppRoutes } from './app-routes';
import { makePublicUser, makeUser } from '../testing/fixtures';
import { makeInvitePreview } from '../features/invites/testing';
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

  it('lets a signed-out visitor open an invite, with the way to sign in and come back', async () => {
    mockApi({ 'GET /invites/ABCD2345EFGH': makeInvitePreview() });
    renderWithProviders(<AppRoutes />, { user: null, route: '/invite/ABCD2345EFGH' });
    expect(await screen.findByTestId('invite-headline')).toHaveTextContent('Cara Captain invited you to join Owls (Winter League) — Owls Hockey Club');
    expect(screen.queryByTestId('dev-sign-in')).not.toBeInTheDocument();
    expect(screen.getByTestId('invite-sign-in')).toHaveAttribute('href', '/sign-in?next=%2Finvite%2FABCD2345EFGH');
  });

  it('shows the sign-in screen at /sign-in when signed out', () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { user: null, route: '/sign-in?next=%2Finvite%2FABCD2345EFGH' });
    expect(screen.getByTestId('dev-sign-in')).toBeInTheDocument();
  });

  it('comes back to the invite once signed in, inside the shell', async () => {
    mockApi({ 'GET /invites/ABCD2345EFGH': makeInvitePreview() });
    renderWithProviders(<AppRoutes />, { route: '/sign-in?next=%2Finvite%2FABCD2345EFGH' });
    expect(await screen.findByTestId('invite-join')).toHaveTextContent('Join Owls');
    expect(screen.getByRole('link', { name: 'Rinkside home' })).toBeInTheDocument();
  });

  it('goes home rather than to another site after signing in', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { route: '/sign-in?next=%2F%2Fevil.example%2Fx' });
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
  });

  it('has Messages in both navigations with my unread count, and the conversation list and a thread on one page', async () => {
    const owls = { id: 'roster-r-1', kind: 'ROSTER', subjectId: 'r-1', title: 'Owls', startsAt: null, lastMessage: null, unread: 2, muted: false, canModerate: false };
    mockApi({
      'GET /chats': { items: [owls], unread: 2 },
      'GET /chats/roster-r-1': { ...owls, messages: [], readSeq: 0, version: 0 },
    });
    renderWithProviders(<AppRoutes />, { route: '/chats' });
    expect(await screen.findAllByRole('link', { name: /^Messages\s*,\s*2 unread$/ })).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Messages' })).toBeInTheDocument();
    await userEvent.setup().click(await screen.findByTestId('chat-row'));
    expect(await screen.findByTestId('chat-title')).toHaveTextContent('Owls');
    expect(screen.getByTestId('chat-row')).toHaveAttribute('aria-current', 'page');
  });

  it('has a real not-found page', () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { route: '/no/such/page' });
    expect(screen.getByText('Off the ice')).toBeInTheDocument();
  });
});
