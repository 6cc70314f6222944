import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PeopleSearchPage } from './people-search-page';
import { makePublicUser } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';

describe('PeopleSearchPage', () => {
  it('searches once the typing pauses, not on every keystroke', async () => {
    const server = mockApi({
      'GET /users': (c) => {
        const q = c.query.get('q') ?? '';
        const all = [makePublicUser(), makePublicUser({ id: 'u-2', username: 'bobby', firstName: 'Bobby', lastName: 'Orr' })];
        return { items: all.filter((u) => !q || u.username?.includes(q)), nextCursor: null };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<PeopleSearchPage />, { route: '/people' });
    expect(await screen.findByText('People on Rinkside')).toBeInTheDocument();

    await user.type(screen.getByTestId('people-search'), 'bobb');
    expect(await screen.findByText('Results for “bobb”')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Bob Burns')).not.toBeInTheDocument());
    expect(screen.getByText('Bobby Orr')).toBeInTheDocument();

    const queries = server.callsTo('GET', '/users').map((c) => c.query.get('q'));
    expect(queries).toEqual([null, 'bobb']);
  });

  it('finds goalies at a level, and keeps @ and _ in what it sends', async () => {
    const server = mockApi({ 'GET /users': { items: [makePublicUser({ username: 'sam_goalie', firstName: 'Sam', lastName: 'Stone' })], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<PeopleSearchPage />, { route: '/people' });
    await user.selectOptions(await screen.findByTestId('people-position'), 'GOALIE');
    await user.selectOptions(screen.getByTestId('people-level'), 'ADVANCED');
    await user.type(screen.getByTestId('people-search'), '@sam_goalie');
    expect(await screen.findByText('Results for “@sam_goalie”')).toBeInTheDocument();
    const last = server.callsTo('GET', '/users').at(-1);
    expect([last?.query.get('q'), last?.query.get('position'), last?.query.get('skillLevel')]).toEqual(['@sam_goalie', 'GOALIE', 'ADVANCED']);
    expect(screen.getByText('Sam Stone')).toBeInTheDocument();
  });

  it('says when nobody matches', async () => {
    mockApi({ 'GET /users': { items: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<PeopleSearchPage />, { route: '/people' });
    await user.type(screen.getByTestId('people-search'), 'zamboni');
    expect(await screen.findByText('No one matches “zamboni”')).toBeInTheDocument();
  });

  it('follows someone straight from the results', async () => {
    let following = false;
    const server = mockApi({
      'GET /users': () => ({ items: [makePublicUser({ isFollowing: following, followerCount: following ? 1 : 0 })], nextCursor: null }),
      'PUT /users/u-bob/follow': () => {
        following = true;
      },
      'GET /me': {},
    });
    const user = userEvent.setup();
    renderWithProviders(<PeopleSearchPage />, { route: '/people' });
    await user.click(await screen.findByRole('button', { name: 'Follow Bob Burns' }));
    expect(await screen.findByRole('button', { name: 'Unfollow Bob Burns' })).toBeInTheDocument();
    expect(server.callsTo('PUT', '/users/u-bob/follow')).toHaveLength(1);
  });
});
