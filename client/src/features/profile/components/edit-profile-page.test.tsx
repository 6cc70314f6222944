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

  it('turns event payment collection on at once, saved on its own', async () => {
    let me = makeUser({ canCollectEventPayments: false });
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
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(box).toBeChecked();
    await waitFor(() => expect(server.callsTo('PATCH', '/me')[0]?.body).toEqual({ canCollectEventPayments: true }));
    expect(await screen.findByTestId('collect-payments-saved')).toHaveTextContent('Saved');
    expect(box).toBeChecked();
    expect(screen.getByTestId('save-profile')).toBeDisabled();
  });
});
