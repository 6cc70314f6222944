import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeExternalGame } from '../testing';
import { LeagueGamesCard, splitGames } from './league-games-card';

const NOW = new Date('2026-11-24T18:48:00Z');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

const GAMES = [
  // Tue Nov 3, 20:30 in Toronto: played.
  makeExternalGame({ id: '770033', dateTime: '2026-11-04T01:30:00Z', homeName: 'Backcheckers', awayName: 'Top Shelf', homeGoals: 2, awayGoals: 2, eventId: 'e-33' }),
  // Tue Nov 24, 20:30 and 21:45 in Toronto (the 21:45 one is past midnight UTC): upcoming.
  makeExternalGame({ id: '770041', dateTime: '2026-11-25T01:30:00Z', homeName: 'Frozen Assets', awayName: 'Blue Liners', eventId: 'e-41' }),
  makeExternalGame({ id: '770042', dateTime: '2026-11-25T02:45:00Z', rink: 'Rink B', homeName: 'Polar Bears', awayName: 'Wolverines', removed: true, gameType: 'Playoffs' }),
  // Tue Dec 1.
  makeExternalGame({ id: '770045', dateTime: '2026-12-02T01:30:00Z', homeName: 'Sin Bin Saints', awayName: 'Zamboni Drivers' }),
];

function setup() {
  const server = mockApi({ 'GET /seasons/s-1/external-games': GAMES });
  renderWithProviders(<LeagueGamesCard seasonId="s-1" timezone="America/Toronto" />);
  return { server, user: userEvent.setup() };
}

describe('LeagueGamesCard', () => {
  it('lists upcoming games by the rink’s day, links games to their events and strikes removed ones', async () => {
    setup();
    const card = await screen.findByTestId('league-games');
    expect(await within(card).findByTestId('league-game-770041')).toBeInTheDocument();
    // Days as they are in Toronto: both of tonight's games under Tue, Nov 24.
    const days = within(card).getAllByRole('region');
    expect(days.map((d) => d.getAttribute('aria-label'))).toEqual(['Tue, Nov 24', 'Tue, Dec 1']);
    expect(within(days[0] as HTMLElement).getAllByRole('listitem')).toHaveLength(2);

    const game = within(card).getByTestId('league-game-770041');
    expect(game).toHaveTextContent(/8:30\sPM/u);
    expect(game).toHaveTextContent('Frozen Assets vs Blue Liners');
    expect(game).toHaveTextContent('Rink A');
    expect(within(game).getByRole('link')).toHaveAttribute('href', '/events/e-41');

    const removed = within(card).getByTestId('league-game-770042');
    expect(removed).toHaveAttribute('data-removed', 'true');
    expect(removed.querySelector('s')).toHaveTextContent('Polar Bears vs Wolverines');
    expect(removed).toHaveTextContent('Rink B · Playoffs · removed from the schedule');
    expect(within(removed).queryByRole('link')).not.toBeInTheDocument();

    expect(within(card).queryByTestId('league-game-770033')).not.toBeInTheDocument();
  });

  it('shows played games with their scores, latest first', async () => {
    const { user } = setup();
    await screen.findByTestId('league-game-770041');
    expect(screen.getByTestId('league-filter-upcoming')).toHaveTextContent('Upcoming (3)');
    await user.click(screen.getByTestId('league-filter-results'));
    const played = screen.getByTestId('league-game-770033');
    expect(within(played).getByTestId('league-game-score')).toHaveTextContent('2–2');
    expect(within(played).getByRole('link')).toHaveAttribute('href', '/events/e-33');
    expect(screen.queryByTestId('league-game-770041')).not.toBeInTheDocument();
  });

  it('splits at the end of a game, not its start', () => {
    const g = makeExternalGame({ id: 'g', dateTime: new Date(NOW.getTime() - 60 * 60_000).toISOString() });
    expect(splitGames([g], NOW).upcoming).toEqual([g]);
    expect(splitGames([g], new Date(NOW.getTime() + 31 * 60_000)).results).toEqual([g]);
  });
});
