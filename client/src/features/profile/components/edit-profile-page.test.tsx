import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditProfilePage } from './edit-profile-page';
import type { User } from '../../../lib/api-types';
import { makeUser } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';

describe('EditProfilePage', () => {
  it('sends only the fields that changed', async () => {
    let me = makeUser({ firstName: 'Nina', bio: null });
    const server = mockApi({
      'PATCH /me': (c) => {
        me = { ...me, ...(c.body as Partial<User>) };
        return me;
      },
      'GET /me/positions': [],
    });
    const user = userEvent.setup();
    renderWithProviders(<EditProfilePage />, { user: me });

    expect(screen.getByTestId('save-profile')).toBeDisabled();
    await user.type(screen.getByLabelText(/bio/i), 'Beer league D-man');
    await user.click(screen.getByTestId('profile-type-REFEREE'));
    await user.click(screen.getByTestId('save-profile'));

    await waitFor(() => expect(server.callsTo('PATCH', '/me')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/me')[0]?.body).toEqual({ bio: 'Beer league D-man', profileTypes: ['PLAYER', 'REFEREE'] });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('shows a rejected username beside the username field', async () => {
    mockApi({
      'PATCH /me': apiError(409, 'validation_failed', 'invalid fields: username', { username: 'is taken' }),
      'GET /me/positions': [],
    });
    const user = userEvent.setup();
    renderWithProviders(<EditProfilePage />);
    const username = screen.getByLabelText(/username/i);
    await user.clear(username);
    await user.type(username, 'gretzky');
    await user.click(screen.getByTestId('save-profile'));
    await waitFor(() => expect(username).toHaveAccessibleDescription('Is taken'));
  });

  it('keeps at least one profile type', async () => {
    const server = mockApi({ 'GET /me/positions': [] });
    const user = userEvent.setup();
    renderWithProviders(<EditProfilePage />, { user: makeUser({ profileTypes: ['FAN'] }) });
    await user.click(screen.getByTestId('profile-type-FAN'));
    await user.click(screen.getByTestId('save-profile'));
    expect(await screen.findByText('Choose at least one.')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/me')).toHaveLength(0);
  });

  it('turns event payment collection off at once, saved on its own; only a rink turns it on', async () => {
    let me = makeUser({ canCollectEventPayments: true });
    const server = mockApi({
      'PATCH /me': (c) => {
        me = { ...me, ...(c.body as Partial<User>) };
        return me;
      },
      'GET /me/positions': [],
    });
    const user = userEvent.setup();
    renderWithProviders(<EditProfilePage />, { user: me });
    const box = screen.getByTestId('collect-payments');
    expect(box).toBeChecked();
    expect(box).toBeEnabled();
    await user.click(box);
    expect(box).not.toBeChecked();
    await waitFor(() => expect(server.callsTo('PATCH', '/me')[0]?.body).toEqual({ canCollectEventPayments: false }));
    expect(await screen.findByTestId('collect-payments-saved')).toHaveTextContent('Saved');
    expect(box).not.toBeChecked();
    expect(screen.getByTestId('save-profile')).toBeDisabled();
    // Off, it cannot be turned back on from here (the server answers 403): the rink does it.
    await waitFor(() => expect(box).toBeDisabled());
    expect(screen.getByText(/A rink turns this on/)).toBeInTheDocument();
  });
});
