import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeFacility } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { FacilitiesPage } from './facilities-page';

describe('FacilitiesPage', { timeout: 20_000 }, () => {
  it('lists rinks with their followers and time zone, follows one in place, and says when a search finds none', async () => {
    let following = false;
    const server = mockApi({
      'GET /facilities': (call) =>
        call.query.get('q')
          ? { items: [], nextCursor: null }
          : { items: [makeFacility({ id: 'f-1', name: 'Lakeside Ice', followerCount: following ? 2 : 1, isFollowing: following, description: 'Two sheets' })], nextCursor: null },
      'PUT /facilities/f-1/follow': () => {
        following = true;
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<FacilitiesPage />);

    const row = await screen.findByTestId('facility-row-f-1');
    expect(row).toHaveTextContent('Lakeside Ice');
    expect(row).toHaveTextContent('1 follower · America/Chicago');
    expect(row).toHaveTextContent('Two sheets');
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/facilities/f-1');
    expect(screen.getByTestId('new-facility')).toHaveAttribute('href', '/facilities/new');

    await user.click(screen.getByRole('button', { name: 'Follow Lakeside Ice' }));
    expect(await screen.findByRole('button', { name: 'Unfollow Lakeside Ice' })).toBeInTheDocument();
    expect(screen.getByTestId('facility-row-f-1')).toHaveTextContent('2 followers · America/Chicago');
    expect(server.callsTo('PUT', '/facilities/f-1/follow')).toHaveLength(1);

    await user.type(screen.getByTestId('facility-search'), 'zamboni');
    expect(await screen.findByText('No rink matches “zamboni”')).toBeInTheDocument();
    expect(screen.getByText('Check the spelling, or add it if it is missing.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a facility' })).toHaveAttribute('href', '/facilities/new');
  });
});
