import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { PlayerStatsPage } from './player-stats-page';

describe('PlayerStatsPage', () => {
  it("shows a player's career totals and a line per roster", async () => {
    mockApi({
      'GET /users/u-a/stats': {
        userId: 'u-a',
        displayName: 'Alice Ames',
        rosters: [
          { rosterId: 'r-2', rosterName: 'Blades B', teamId: 't-1', teamName: 'Blades', seasonId: 's-2', seasonName: 'Winter League', jerseyNumber: 9, position: 'LEFT_WING', goals: 3, assists: 2, points: 5, penaltyMinutes: 4, gamesPlayed: 4 },
          { rosterId: 'r-1', rosterName: 'Blades', teamId: 't-1', teamName: 'Blades', seasonId: 's-1', seasonName: 'Fall League', jerseyNumber: null, position: null, goals: 1, assists: 0, points: 1, penaltyMinutes: 0, gamesPlayed: 2 },
        ],
        totals: { goals: 4, assists: 2, points: 6, penaltyMinutes: 4, gamesPlayed: 6 },
      },
    });
    renderWithProviders(<PlayerStatsPage />, { route: '/users/u-a/stats', path: '/users/:id/stats' });
    expect(await screen.findByRole('heading', { name: 'Alice Ames' })).toBeInTheDocument();
    expect(screen.getByTestId('total-points')).toHaveTextContent('6');
    expect(screen.getByTestId('total-games')).toHaveTextContent('6');
    const rows = within(screen.getByTestId('roster-stats')).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Blades');
    expect(rows[0]).toHaveTextContent('Blades B · Winter League');
    expect(rows[0]).toHaveTextContent('#9');
    expect(rows[0]).toHaveTextContent('LW');
    expect(rows[1]).toHaveTextContent('Fall League');
  });
});
