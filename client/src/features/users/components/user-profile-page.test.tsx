import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { createStore } from 'jotai';
import { DOUBLE_TAP_MS } from '../../../lib/use-follow-toggle';
import { topicAtomFamily } from '../../../lib/ws';
import userEvent from '@testing-library/user-event';
import { UserProfilePage } from './user-profile-page';
import { makePublicUser, makeUser } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders, TEST_TOKEN } from '../../../testing/render';

function bobServer() {
  let following = false;
  const bob = () =>
    makePublicUser({
      followerCount: following ? 1 : 0,
      isFollowing: following,
      positions: [
        { id: 'p1', position: 'GOALIE', skillLevel: 'ADVANCED', isPreferred: true, createdAt: '', updatedAt: '' },
      ],
    });
  const server = mockApi({
    'GET /users/u-bob': () => bob(),
    'PUT /users/u-bob/follow': () => {
      following = true;
    },
    'DELETE /users/u-bob/follow': () => {
      following = false;
    },
    'GET /me': () => makeUser({ followingCount: following ? 1 : 0 }),
  });
  return server;
}

describe('UserProfilePage', () => {
  it('shows the profile with its positions and counts', async () => {
    bobServer();
    renderWithProviders(<UserProfilePage />, { route: '/users/u-bob', path: '/users/:id' });
    expect(await screen.findByTestId('profile-name')).toHaveTextContent('Bob Burns');
    expect(screen.getByText('@bob')).toBeInTheDocument();
    expect(screen.getByText('Goalie')).toBeInTheDocument();
    expect(screen.getByText('Advanced')).toBeInTheDocument();
    expect(screen.getByTestId('follower-count')).toHaveTextContent('0');
  });

  it('updates the follower count right after I follow, and back after I unfollow', async () => {
    const server = bobServer();
    const user = userEvent.setup();
    renderWithProviders(<UserProfilePage />, { route: '/users/u-bob', path: '/users/:id' });

    const button = await screen.findByTestId('follow-button');
    expect(button).toHaveAccessibleName('Follow Bob Burns');
    await user.click(button);

    expect(screen.getByTestId('follower-count')).toHaveTextContent('1');
    await waitFor(() => expect(screen.getByTestId('follow-button')).toHaveAccessibleName('Unfollow Bob Burns'));
    expect(server.callsTo('PUT', '/users/u-bob/follow')).toHaveLength(1);
    expect(server.callsTo('PUT', '/users/u-bob/follow')[0]?.headers.Authorization).toBe(`Bearer ${TEST_TOKEN}`);
    // The refetched profile agrees with the optimistic count.
    await waitFor(() => expect(server.callsTo('GET', '/users/u-bob').length).toBeGreaterThanOrEqual(2));
    expect(screen.getByTestId('follower-count')).toHaveTextContent('1');

    // A second, separate tap (not the second half of a double tap) unfollows.
    await act(async () => new Promise((r) => setTimeout(r, DOUBLE_TAP_MS)));
    await user.click(screen.getByTestId('follow-button'));
    await waitFor(() => expect(screen.getByTestId('follower-count')).toHaveTextContent('0'));
    expect(server.callsTo('DELETE', '/users/u-bob/follow')).toHaveLength(1);
  });

  it('takes a double tap on Follow as one follow', async () => {
    const server = bobServer();
    const user = userEvent.setup();
    renderWithProviders(<UserProfilePage />, { route: '/users/u-bob', path: '/users/:id' });
    const button = await screen.findByTestId('follow-button');
    await user.click(button);
    await waitFor(() => expect(server.callsTo('GET', '/users/u-bob').length).toBeGreaterThanOrEqual(2));
    // The second tap lands after the follow finished, within the double-tap window.
    await user.click(screen.getByTestId('follow-button'));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(server.callsTo('DELETE', '/users/u-bob/follow')).toHaveLength(0);
    expect(server.callsTo('PUT', '/users/u-bob/follow')).toHaveLength(1);
    expect(screen.getByTestId('follow-button')).toHaveAccessibleName('Unfollow Bob Burns');
  });

  it('counts followers live when someone else follows', async () => {
    bobServer();
    const store = createStore();
    renderWithProviders(<UserProfilePage />, { route: '/users/u-bob', path: '/users/:id', store });
    expect(await screen.findByTestId('follower-count')).toHaveTextContent('0');
    act(() => store.set(topicAtomFamily('follows:u-bob'), { seq: 5, data: { id: 'u-bob', kind: 'USER', followerCount: 12, followingCount: 3 } }));
    expect(screen.getByTestId('follower-count')).toHaveTextContent('12');
    expect(screen.getByTestId('following-count')).toHaveTextContent('3');
  });

  it('rolls back and explains when following fails', async () => {
    mockApi({
      'GET /users/u-bob': makePublicUser(),
      'PUT /users/u-bob/follow': apiError(429, 'rate_limited', 'Slow down a little'),
    });
    const user = userEvent.setup();
    renderWithProviders(<UserProfilePage />, { route: '/users/u-bob', path: '/users/:id' });
    await user.click(await screen.findByTestId('follow-button'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Slow down a little');
    expect(screen.getByTestId('follower-count')).toHaveTextContent('0');
  });

  it('offers Edit profile instead of Follow on my own page', async () => {
    mockApi({ 'GET /users/u-me': makePublicUser({ id: 'u-me', username: 'me', firstName: null, lastName: null }) });
    renderWithProviders(<UserProfilePage />, { route: '/users/u-me', path: '/users/:id' });
    const hero = await screen.findByTestId('user-profile');
    expect(within(hero).getByRole('link', { name: /edit profile/i })).toBeInTheDocument();
    expect(screen.queryByTestId('follow-button')).not.toBeInTheDocument();
  });

  it('says so when the profile does not exist', async () => {
    mockApi({ 'GET /users/nope': apiError(404, 'not_found', 'user not found') });
    renderWithProviders(<UserProfilePage />, { route: '/users/nope', path: '/users/:id' });
    expect(await screen.findByText('No one skates under that name')).toBeInTheDocument();
  });
});
