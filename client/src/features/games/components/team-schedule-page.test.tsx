import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TeamPage } from '../../../lib/api-types';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeEntry } from '../model/test-fixtures';
import { TeamSchedulePage } from './team-schedule-page';

const team = {
  id: 't-home',
  name: 'Blades',
  logoUrl: null,
  description: null,
  facilityId: null,
  creatorId: 'u-1',
  ownerId: 'u-1',
  createdAt: '',
  updatedAt: '',
  followerCount: 0,
  isFollowing: false,
  facilityName: null,
  managers: [],
  rosters: [
    { id: 'r-home', seasonId: 's-2', seasonName: 'Winter League' },
    { id: 'r-old', seasonId: 's-1', seasonName: 'Fall League' },
  ],
  viewerRole: null,
} as unknown as TeamPage;

describe('TeamSchedulePage', () => {
  it("lists the team's games with results from its side, pages on, and filters by season", async () => {
    const server = mockApi({
      'GET /teams/t-home': team,
      'GET /teams/t-home/schedule': (call) =>
        call.query.get('cursor')
          ? { items: [makeEntry({ id: 'g-3', status: 'FINAL', homeTeamId: 't-other', awayTeamId: 't-home', homeScore: 2, awayScore: 2, scheduledAt: '2026-11-03T19:00:00Z' })], nextCursor: null }
          : {
              items: [
                makeEntry({ id: 'g-1', status: 'FINAL', homeScore: 5, awayScore: 1, scheduledAt: '2026-11-01T19:00:00Z' }),
                makeEntry({ id: 'g-2', status: 'FINAL', homeTeamId: 't-other', awayTeamId: 't-home', homeScore: 3, awayScore: 0, scheduledAt: '2026-11-02T19:00:00Z' }),
              ],
              nextCursor: 'c-2',
            },
    });
    const user = userEvent.setup();
    renderWithProviders(<TeamSchedulePage />, { route: '/teams/t-home/schedule', path: '/teams/:id/schedule' });
    expect(await screen.findByTestId('schedule-g-1-result')).toHaveTextContent('W');
    expect(screen.getByTestId('schedule-g-2-result')).toHaveTextContent('L');
    await user.click(screen.getByTestId('load-more'));
    expect(await screen.findByTestId('schedule-g-3-result')).toHaveTextContent('T');
    await user.click(screen.getByRole('tab', { name: 'Fall League' }));
    await waitFor(() => expect(server.calls.some((c) => c.path === '/teams/t-home/schedule' && c.query.get('seasonId') === 's-1')).toBe(true));
  });
});
