import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { Game, SeasonDetail } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { gameSnapshotFrame, gameUpdateFrame } from '../../../testing/game-frames';
import { openLiveSocket } from '../../../testing/open-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { logEntry, makeEntry, makeGame, makeStanding } from '../model/test-fixtures';
import { GamePage } from './game-page';

export const SEASON: SeasonDetail = {
  id: 's-1',
  facilityId: 'f-1',
  facilityName: 'Lakeside Ice',
  name: 'Fall League',
  startDate: '2026-09-01T00:00:00Z',
  endDate: '2027-03-01T00:00:00Z',
  isActive: true,
  syncUrl: null,
  syncEnabled: false,
  lastSyncAt: null,
  nextSyncAt: null,
  lastSync: null,
  createdAt: '',
  updatedAt: '',
  viewerCanEdit: false,
};

function setup(game: Game, extra: Parameters<typeof mockApi>[0] = {}) {
  const server = mockApi({
    'GET /games/g-1': game,
    'GET /seasons/s-1': SEASON,
    'GET /seasons/s-1/schedule': [makeEntry({ status: game.status })],
    'GET /seasons/s-1/standings': [makeStanding('r-away', 'Ice Hawks', { points: 2, wins: 1, gamesPlayed: 1 }), makeStanding('r-home', 'Blades')],
    ...extra,
  });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <GamePage />
    </LiveSocketContext.Provider>,
    { store, route: '/games/g-1', path: '/games/:id' },
  );
  return { server, live, store, user: userEvent.setup() };
}

const goal = logEntry(2, { rosterId: 'r-home', playerId: 'h1', playerName: 'Alice Ames', assistIds: ['h2'], assistNames: ['Bruno Berg'] });

describe('GamePage', () => {
  it('shows the score, period and play-by-play, and follows game and season pushes live', async () => {
    const game = makeGame({ homeScore: 1, log: [logEntry(1, { type: 'START' }), goal], version: 3 });
    const { live, store } = setup(game);
    expect(await screen.findByTestId('home-score')).toHaveTextContent('1');
    expect(screen.getByTestId('away-score')).toHaveTextContent('0');
    expect(screen.getByTestId('game-state')).toHaveTextContent('1st period');
    expect(live.subscribe).toHaveBeenCalledWith('game:g-1');
    expect(live.subscribe).toHaveBeenCalledWith('season:s-1');
    expect(screen.getByTestId('log-2')).toHaveTextContent('#9 Alice Ames');
    expect(screen.getByTestId('log-2')).toHaveTextContent('Assists: #12 Bruno Berg');
    expect(screen.getByTestId('log-2')).toHaveTextContent('1–0');

    // A snapshot older than the REST read does not take the score back.
    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 2, data: { ...game, version: 2, homeScore: 0, log: [logEntry(1, { type: 'START' })] } }));
    expect(screen.getByTestId('home-score')).toHaveTextContent('1');

    // An away goal and a penalty arrive over the socket.
    const pushed = {
      ...game,
      version: 5,
      awayScore: 1,
      log: [...game.log, logEntry(3, { rosterId: 'r-away', playerId: 'a2', playerName: 'Ned North' }), logEntry(4, { type: 'PENALTY', rosterId: 'r-home', playerId: 'h3', playerName: 'Cara Cole', minutes: 2 })],
    };
    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 5, data: pushed }));
    expect(screen.getByTestId('away-score')).toHaveTextContent('1');
    expect(screen.getByTestId('log-3')).toHaveTextContent('#19 Ned North');
    expect(screen.getByTestId('log-4')).toHaveTextContent('#27 Cara Cole · Minor · 2 min');

    // Standings in the server's order, then live.
    const rows = () => within(screen.getByTestId('standings')).getAllByRole('row').slice(1).map((r) => within(r).getByRole('rowheader').textContent);
    await waitFor(() => expect(rows()).toEqual(['Ice Hawks', 'Blades']));
    act(() =>
      store.set(topicAtomFamily('season:s-1'), {
        seq: 9,
        data: { seasonId: 's-1', seq: 9, schedule: [makeEntry({ status: 'LIVE' })], standings: [makeStanding('r-home', 'Blades', { points: 4 }), makeStanding('r-away', 'Ice Hawks', { points: 2 })] },
      }),
    );
    expect(rows()).toEqual(['Blades', 'Ice Hawks']);
  });

  it('keeps the whole play-by-play of a long game from update frames that carry only what changed', async () => {
    // Puck drop and eleven goals: entry 2 is older than any update's tail.
    const goals = Array.from({ length: 11 }, (_, i) =>
      logEntry(i + 2, i % 2 === 0 ? { rosterId: 'r-home', playerId: 'h1', playerName: 'Alice Ames' } : { rosterId: 'r-away', playerId: 'a1', playerName: 'Mia Moss' }),
    );
    const game = makeGame({ homeScore: 6, awayScore: 5, version: 12, log: [logEntry(1, { type: 'START' }), ...goals] });
    mockApi({ 'GET /games/g-1': game, 'GET /seasons/s-1': SEASON, 'GET /seasons/s-1/schedule': [makeEntry({ status: 'LIVE' })], 'GET /seasons/s-1/standings': [] });
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    renderWithProviders(
      <LiveSocketContext.Provider value={socket}>
        <GamePage />
      </LiveSocketContext.Provider>,
      { store, route: '/games/g-1', path: '/games/:id' },
    );
    await screen.findByTestId('home-score');
    act(() => server.receive(gameSnapshotFrame(game)));

    const penalty = logEntry(13, { type: 'PENALTY', rosterId: 'r-home', playerId: 'h3', playerName: 'Cara Cole', minutes: 2 });
    const withPenalty = { ...game, version: 13, log: [...game.log, penalty] };
    const frame = gameUpdateFrame(withPenalty, game);
    expect(frame.data.entries.map((e) => e.seq)).toEqual([13]);
    expect(frame.data.entries[0]).not.toHaveProperty('playerName');
    act(() => server.receive(frame));
    expect(screen.getByTestId('log-2')).toHaveTextContent('#9 Alice Ames');
    expect(screen.getByTestId('log-2')).toHaveTextContent('1–0');
    expect(screen.getByTestId('log-13')).toHaveTextContent('#27 Cara Cole · Minor · 2 min');

    // UNDO of the penalty (action 14).
    act(() => server.receive(gameUpdateFrame({ ...game, version: 14 }, withPenalty)));
    expect(screen.queryByTestId('log-13')).not.toBeInTheDocument();
    expect(screen.getByTestId('log-12')).toHaveTextContent('6–5');
    expect(screen.getByTestId('log-2')).toBeInTheDocument();
    act(() => socket.stop());
  });

  it('offers the console to scorers only, and the arena display to everyone', async () => {
    setup(makeGame({ viewer: { canScore: false, canManage: false, lineupRosterIds: ['r-home', 'r-away'] } }));
    expect(await screen.findByTestId('open-display')).toHaveAttribute('href', '/display/game/g-1');
    expect(screen.queryByTestId('open-console')).not.toBeInTheDocument();
  });

  it('links scorers to the console', async () => {
    setup(makeGame());
    expect(await screen.findByTestId('open-console')).toHaveAttribute('href', '/games/g-1/score');
  });

  it('lets staff reschedule a game that has not started', async () => {
    const game = makeGame({ status: 'SCHEDULED', period: null, log: [], viewer: { canScore: true, canManage: true, lineupRosterIds: ['r-home', 'r-away'] } });
    const { server, user } = setup(game, { 'PATCH /games/g-1': (call) => ({ ...game, ...(call.body as object), version: 2 }) });
    await user.click(await screen.findByTestId('edit-this-game'));
    await user.selectOptions(screen.getByTestId('edit-game-status'), 'POSTPONED');
    await user.click(screen.getByTestId('edit-game-save'));
    await waitFor(() => expect(server.callsTo('PATCH', '/games/g-1')[0]?.body).toEqual({ status: 'POSTPONED' }));
    expect(await screen.findByText('This game is postponed')).toBeInTheDocument();
  });

  it('says so when the game does not exist', async () => {
    mockApi({ 'GET /games/nope': { __reply: true, status: 404, body: { error: { code: 'not_found', message: 'game not found' } } } });
    renderWithProviders(<GamePage />, { route: '/games/nope', path: '/games/:id' });
    expect(await screen.findByText('This game is not on Rinkside')).toBeInTheDocument();
  });
});
