import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FollowListPage } from './follow-list-page';
import { makeFacility, makePublicUser } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';

describe('FollowListPage', () => {
  it('pages followers with "load more" using the keyset cursor', async () => {
    const server = mockApi({
      'GET /users/u-bob': makePublicUser(),
      'GET /users/u-bob/followers': (c) =>
        c.query.get('cursor') === 'c2'
          ? { items: [makePublicUser({ id: 'f3', username: 'third', firstName: 'Third', lastName: 'Fan' })], nextCursor: null }
          : {
              items: [
                makePublicUser({ id: 'f1', username: 'first', firstName: 'First', lastName: 'Fan' }),
                makePublicUser({ id: 'f2', username: 'second', firstName: 'Second', lastName: 'Fan' }),
              ],
              nextCursor: 'c2',
            },
    });
    const user = userEvent.setup();
    renderWithProviders(<FollowListPage kind="followers" />, { route: '/users/u-bob/followers', path: '/users/:id/followers' });

    expect(await screen.findByText('First Fan')).toBeInTheDocument();
    expect(screen.getByText('Second Fan')).toBeInTheDocument();
    await user.click(screen.getByTestId('load-more'));
    expect(await screen.findByText('Third Fan')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('load-more')).not.toBeInTheDocument());
    const cursors = server.callsTo('GET', '/users/u-bob/followers').map((c) => c.query.get('cursor'));
    expect(cursors).toEqual([null, 'c2']);
    expect(screen.getByRole('link', { name: /bob burns/i })).toHaveAttribute('href', '/users/u-bob');
  });

  it('lists followed facilities on the facilities tab', async () => {
    mockApi({
      'GET /users/u-bob': makePublicUser(),
      'GET /users/u-bob/following/facilities': { items: [makeFacility({ followerCount: 3 })], nextCursor: null },
    });
    renderWithProviders(<FollowListPage kind="facilities" />, {
      route: '/users/u-bob/following/facilities',
      path: '/users/:id/following/facilities',
    });
    expect(await screen.findByText('Lakeside Ice')).toBeInTheDocument();
    expect(screen.getByText(/3 followers/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Facilities' })).toHaveClass('active');
  });

  it('shows an empty state when nobody follows yet', async () => {
    mockApi({ 'GET /users/u-bob': makePublicUser(), 'GET /users/u-bob/followers': { items: [], nextCursor: null } });
    renderWithProviders(<FollowListPage kind="followers" />, { route: '/users/u-bob/followers', path: '/users/:id/followers' });
    expect(await screen.findByText('No followers yet')).toBeInTheDocument();
  });
});
