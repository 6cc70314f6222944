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

  it('adds power-play and shorthanded goals, penalty minutes by type, and a goalie table apart', async () => {
    const line = { rosterId: 'r-1', rosterName: 'Blades', teamId: 't-1', teamName: 'Blades', seasonId: 's-1', seasonName: 'Fall League', jerseyNumber: 30, position: 'GOALIE', goals: 2, assists: 0, points: 2, penaltyMinutes: 17, gamesPlayed: 3 };
    mockApi({
      'GET /users/u-g/stats': {
        userId: 'u-g',
        displayName: 'Gil Gray',
        rosters: [{ ...line, ppGoals: 1, shGoals: 1, minorPim: 2, majorPim: 5, misconductPim: 10, shotsAgainst: 60, goalsAgainst: 5, goalieMs: 7_200_000 }],
        totals: { goals: 2, assists: 0, points: 2, penaltyMinutes: 17, gamesPlayed: 3 },
      },
    });
    renderWithProviders(<PlayerStatsPage />, { route: '/users/u-g/stats', path: '/users/:id/stats' });
    const skater = within(await screen.findByTestId('roster-stats')).getAllByRole('row')[1];
    // G A PTS PPG SHG PIM Min Maj Misc
    expect(skater).toHaveTextContent(/2\s*0\s*2\s*1\s*1\s*17\s*2\s*5\s*10$/);
    const goalie = within(screen.getByTestId('goalie-stats')).getAllByRole('row')[1];
    // SA GA SV SV% GAA MIN
    expect(goalie).toHaveTextContent(/60\s*5\s*55\s*\.917\s*2\.50\s*120$/);
  });

  it('has no goalie table for a skater', async () => {
    mockApi({
      'GET /users/u-s/stats': {
        userId: 'u-s',
        displayName: 'Sam Skate',
        rosters: [{ rosterId: 'r-1', rosterName: 'Blades', teamId: 't-1', teamName: 'Blades', seasonId: 's-1', seasonName: 'Fall League', jerseyNumber: 9, position: 'CENTER', goals: 0, assists: 0, points: 0, penaltyMinutes: 0, gamesPlayed: 1, shotsAgainst: 0, goalieMs: 0 }],
        totals: { goals: 0, assists: 0, points: 0, penaltyMinutes: 0, gamesPlayed: 1 },
      },
    });
    renderWithProviders(<PlayerStatsPage />, { route: '/users/u-s/stats', path: '/users/:id/stats' });
    await screen.findByTestId('roster-stats');
    expect(screen.queryByTestId('goalie-stats')).not.toBeInTheDocument();
  });
});
