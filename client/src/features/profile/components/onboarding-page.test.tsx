import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OnboardingPage } from './onboarding-page';
import type { PlayerPosition, User } from '../../../lib/api-types';
import { useAuth } from '../../../lib/auth/auth-context';
import { makeUser } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';

/** Shows onboarding until the session user says it is complete, like the app does. */
function Gate() {
  const { user } = useAuth();
  return user?.onboardingComplete ? <p>Welcome to the shell</p> : <OnboardingPage />;
}

function onboardingServer() {
  let me: User = makeUser({ username: 'newbie', profileTypes: [], onboardingComplete: false });
  const positions: PlayerPosition[] = [];
  const server = mockApi({
    'GET /me': () => me,
    'PATCH /me': (c) => {
      me = { ...me, ...(c.body as Partial<User>) };
      return me;
    },
    'POST /me/legal': (c) => {
      me = { ...me, legalVersion: (c.body as { legalVersion: string }).legalVersion, legalAcceptedAt: '2026-11-22T00:00:00Z' };
      return me;
    },
    'GET /me/positions': () => positions,
    'POST /me/positions': (c) => {
      const b = c.body as Omit<PlayerPosition, 'id' | 'createdAt' | 'updatedAt'>;
      const p = { ...b, id: `p${positions.length + 1}`, createdAt: '', updatedAt: '' };
      positions.push(p);
      return p;
    },
  });
  return server;
}

describe('OnboardingPage', () => {
  it('requires at least one profile type', async () => {
    const server = onboardingServer();
    const user = userEvent.setup();
    renderWithProviders(<Gate />, { user: makeUser({ username: 'newbie', profileTypes: [], onboardingComplete: false }) });
    await user.click(screen.getByTestId('onboarding-next'));
    expect(await screen.findByText('Choose at least one.')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/me')).toHaveLength(0);
  });

  it('walks through types, positions and terms, then marks onboarding complete', async () => {
    const server = onboardingServer();
    const user = userEvent.setup();
    renderWithProviders(<Gate />, { user: makeUser({ username: 'newbie', profileTypes: [], onboardingComplete: false }) });

    // Step 1: who you are.
    await user.click(screen.getByTestId('profile-type-PLAYER'));
    await user.click(screen.getByTestId('profile-type-COACH'));
    await user.type(screen.getByLabelText(/first name/i), 'Nina');
    await user.click(screen.getByTestId('onboarding-next'));
    await waitFor(() => expect(server.callsTo('PATCH', '/me')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/me')[0]?.body).toEqual({
      username: 'newbie',
      firstName: 'Nina',
      lastName: null,
      profileTypes: ['PLAYER', 'COACH'],
    });

    // Step 2: a player must add a position; the first one becomes preferred.
    await screen.findByText('Where do you play?');
    await user.click(await screen.findByTestId('add-CENTER'));
    await waitFor(() => expect(server.callsTo('POST', '/me/positions')).toHaveLength(1));
    expect(server.callsTo('POST', '/me/positions')[0]?.body).toEqual({ position: 'CENTER', skillLevel: 'INTERMEDIATE', isPreferred: true });
    await screen.findByTestId('skill-CENTER');
    await user.click(screen.getByTestId('onboarding-next'));

    // Step 3: terms must be accepted.
    await user.click(await screen.findByTestId('onboarding-finish'));
    expect(await screen.findByText('Please accept the terms to continue.')).toBeInTheDocument();
    await user.click(screen.getByTestId('accept-terms'));
    await user.click(screen.getByTestId('onboarding-finish'));

    expect(await screen.findByText('Welcome to the shell')).toBeInTheDocument();
    expect(server.callsTo('POST', '/me/legal')[0]?.body).toEqual({ legalVersion: '2026-11' });
    expect(server.callsTo('PATCH', '/me').at(-1)?.body).toEqual({ onboardingComplete: true });
  });

  it('blocks a player without positions on step two', async () => {
    onboardingServer();
    const user = userEvent.setup();
    renderWithProviders(<Gate />, { user: makeUser({ username: 'newbie', profileTypes: ['PLAYER'], onboardingComplete: false }) });
    await user.click(screen.getByTestId('onboarding-next'));
    await screen.findByText('Where do you play?');
    await screen.findByTestId('add-GOALIE');
    await user.click(screen.getByTestId('onboarding-next'));
    expect(await screen.findByText('Add at least one position you play.')).toBeInTheDocument();
  });

  it('shows server validation messages beside the fields', async () => {
    mockApi({
      'PATCH /me': apiError(422, 'validation_failed', 'invalid fields: username', { username: "3–30 letters, digits, '_', '.' or '-'" }),
    });
    const user = userEvent.setup();
    renderWithProviders(<Gate />, { user: makeUser({ username: 'newbie', profileTypes: [], onboardingComplete: false }) });
    await user.click(screen.getByTestId('profile-type-FAN'));
    await user.clear(screen.getByLabelText(/username/i));
    await user.type(screen.getByLabelText(/username/i), 'x!');
    await user.click(screen.getByTestId('onboarding-next'));
    const field = screen.getByLabelText(/username/i);
    await waitFor(() => expect(field).toHaveAccessibleDescription("3–30 letters, digits, '_', '.' or '-'"));
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });
});
