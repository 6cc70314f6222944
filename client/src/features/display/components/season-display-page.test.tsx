import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { createStore } from 'jotai';
import type { GameScheduleEntry, Standing } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { PANEL_MS, panelsFor, STANDINGS_PER_PANEL, SeasonDisplayPage } from './season-display-page';

const standing = (rosterId: string, name: string, points = 0): Standing => ({ rosterId, name, gamesPlayed: 0, wins: 0, losses: 0, ties: 0, points, goalsFor: 0, goalsAgainst: 0 });
const game = (id: string, scheduledAt: string, over: Partial<GameScheduleEntry> = {}): GameScheduleEntry => ({
  id,
  seasonId: 's-1',
  seasonName: 'Fall League',
  scheduledAt,
  status: 'SCHEDULED',
  period: null,
  homeRosterId: 'r-1',
  homeRosterName: 'Blades',
  homeTeamId: 't-1',
  awayRosterId: 'r-2',
  awayRosterName: 'Ice Hawks',
  awayTeamId: 't-2',
  homeScore: 0,
  awayScore: 0,
  version: 1,
  ...over,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('panelsFor', () => {
  const now = new Date(2026, 10, 20, 18, 0);
  const at = (day: number, hour: number) => new Date(2026, 10, day, hour, 0).toISOString();

  it("pages the standings and shows today's games (and games still live)", () => {
    const standings = Array.from({ length: STANDINGS_PER_PANEL + 2 }, (_, i) => standing(`r-${i}`, `Team ${i}`));
    const schedule = [game('old-live', at(19, 22), { status: 'LIVE' }), game('today', at(20, 19)), game('tomorrow', at(21, 19))];
    const panels = panelsFor(standings, schedule, now);
    expect(panels.map((p) => p.kind)).toEqual(['standings', 'standings', 'games']);
    expect(panels[1]).toMatchObject({ kind: 'standings', offset: STANDINGS_PER_PANEL, page: 2, pages: 2 });
    expect(panels[2]).toMatchObject({ title: "Today's games" });
    expect(panels[2]?.kind === 'games' && panels[2].games.map((g) => g.id)).toEqual(['old-live', 'today']);
  });

  it('shows what is coming up on a day without games', () => {
    const panels = panelsFor([standing('r-1', 'Blades')], [game('past', at(10, 19), { status: 'FINAL' }), game('next', at(23, 19))], now);
    expect(panels[1]).toMatchObject({ kind: 'games', title: 'Coming up', withDay: true });
  });
});

describe('SeasonDisplayPage', () => {
  it('cycles standings and today, live from the season topic, signed out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const today = new Date();
    today.setHours(19, 0, 0, 0);
    mockApi({
      'GET /seasons/s-1': { id: 's-1', name: 'Fall League', facilityName: 'Lakeside Ice' },
      'GET /seasons/s-1/standings': [standing('r-1', 'Blades', 2), standing('r-2', 'Ice Hawks')],
      'GET /seasons/s-1/schedule': [game('g-1', today.toISOString())],
    });
    const live = fakeLiveSocket();
    const store = createStore();
    store.set(connectionStateAtom, 'live');
    renderWithProviders(
      <LiveSocketContext.Provider value={live.socket}>
        <SeasonDisplayPage />
      </LiveSocketContext.Provider>,
      { store, user: null, route: '/display/season/s-1', path: '/display/season/:id' },
    );
    const table = await screen.findByTestId('display-standings');
    expect(within(table).getAllByRole('rowheader').map((r) => r.textContent)).toEqual(['Blades', 'Ice Hawks']);
    expect(live.subscribe).toHaveBeenCalledWith('season:s-1');

    act(() =>
      store.set(topicAtomFamily('season:s-1'), {
        seq: 4,
        data: { seasonId: 's-1', seq: 4, standings: [standing('r-2', 'Ice Hawks', 2), standing('r-1', 'Blades', 2)], schedule: [game('g-1', today.toISOString(), { status: 'LIVE', period: '3', homeScore: 2, awayScore: 3 })] },
      }),
    );
    expect(within(screen.getByTestId('display-standings')).getAllByRole('rowheader').map((r) => r.textContent)).toEqual(['Ice Hawks', 'Blades']);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PANEL_MS);
    });
    const g = screen.getByTestId('display-game-g-1');
    expect(g).toHaveTextContent('Live3rd');
    expect(g).toHaveTextContent('Blades2');
    expect(g).toHaveTextContent('Ice Hawks3');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PANEL_MS);
    });
    expect(screen.getByTestId('display-standings')).toBeInTheDocument();
  });
});
