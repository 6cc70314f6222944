import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { createStore } from 'jotai';
import type { Game, GameLogEntry } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { gameSnapshotFrame, gameUpdateFrame } from '../../../testing/game-frames';
import { openLiveSocket } from '../../../testing/open-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { GameDisplayPage, gamePill } from './game-display-page';

const entry = (seq: number, over: Partial<GameLogEntry>): GameLogEntry => ({
  seq,
  type: 'GOAL',
  period: '1',
  rosterId: null,
  playerId: null,
  playerName: null,
  assistIds: [],
  assistNames: [],
  minutes: null,
  createdAt: '2026-11-20T19:05:00Z',
  ...over,
});

const game: Game = {
  id: 'g-1',
  status: 'LIVE',
  period: '2',
  homeScore: 1,
  awayScore: 0,
  homeRosterId: 'H',
  awayRosterId: 'A',
  version: 3,
  log: [entry(1, { type: 'START' }), entry(2, { rosterId: 'H', playerId: 'h1', playerName: 'Alice Ames' }), entry(3, { type: 'END_PERIOD' })],
  home: { rosterId: 'H', name: 'Blades', players: [{ userId: 'h1', displayName: 'Alice Ames', jerseyNumber: 9, position: null, dressed: true }] },
  away: { rosterId: 'A', name: 'Ice Hawks', players: [{ userId: 'a1', displayName: 'Mia Moss', jerseyNumber: 4, position: null, dressed: true }] },
  seasonId: 's-1',
  scheduledAt: '2026-11-20T19:00:00Z',
};

function setup(g: Game = game) {
  const server = mockApi({ 'GET /games/g-1': g, 'GET /seasons/s-1': { id: 's-1', name: 'Fall League', facilityName: 'Lakeside Ice' } });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  // Signed out: arena displays run without an account.
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <GameDisplayPage />
    </LiveSocketContext.Provider>,
    { store, user: null, route: '/display/game/g-1', path: '/display/game/:id' },
  );
  return { server, live, store };
}

describe('GameDisplayPage', () => {
  it('shows both teams, the score and the period signed out, and follows goals live', async () => {
    const { live, store, server } = setup();
    expect(await screen.findByTestId('display-home-name')).toHaveTextContent('Blades');
    expect(screen.getByTestId('display-home-score')).toHaveTextContent('1');
    expect(screen.getByTestId('display-away-score')).toHaveTextContent('0');
    expect(screen.getByTestId('display-state')).toHaveTextContent('1stIntermission');
    expect(live.subscribe).toHaveBeenCalledWith('game:g-1');
    expect(server.callsTo('GET', '/games/g-1')[0]?.headers.Authorization).toBeUndefined();
    // Before the first snapshot the page does not claim to be live.
    expect(screen.getByTestId('display-connection')).toHaveAttribute('data-state', 'connecting');

    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 3, data: game }));
    expect(screen.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');
    act(() =>
      store.set(topicAtomFamily('game:g-1'), {
        seq: 4,
        data: { ...game, version: 4, awayScore: 1, log: [...game.log, entry(4, { period: '2', rosterId: 'A', playerId: 'a1', playerName: 'Mia Moss' })] },
      }),
    );
    expect(screen.getByTestId('display-away-score')).toHaveTextContent('1');
    expect(screen.getByText('Goal!')).toBeInTheDocument();
    expect(screen.getByTestId('display-last-goal')).toHaveTextContent('#4 Mia Moss');
    expect(screen.getByTestId('display-state')).toHaveTextContent('2ndPeriod');
    expect(document.title).toBe('Blades 1–1 Ice Hawks · Rinkside');
  });

  it('says "reconnecting" and dims the score as soon as the connection is lost, and clears it when back', async () => {
    const { store } = setup();
    await screen.findByTestId('display-home-score');
    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 3, data: game }));
    expect(screen.getByTestId('game-display')).toHaveAttribute('data-stale', 'false');

    act(() => store.set(connectionStateAtom, 'reconnecting'));
    const mark = screen.getByTestId('display-connection');
    expect(mark).toHaveAttribute('data-state', 'reconnecting');
    expect(mark).toHaveTextContent('Reconnecting…');
    expect(mark).toHaveTextContent(/Scores as of/);
    expect(screen.getByTestId('game-display')).toHaveAttribute('data-stale', 'true');

    act(() => store.set(connectionStateAtom, 'live'));
    expect(screen.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');
    expect(screen.getByTestId('game-display')).toHaveAttribute('data-stale', 'false');
  });

  it('follows the small update frames of the socket: numbers from the snapshot, an undone goal gone', async () => {
    mockApi({ 'GET /games/g-1': game, 'GET /seasons/s-1': { id: 's-1', name: 'Fall League', facilityName: 'Lakeside Ice' } });
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    renderWithProviders(
      <LiveSocketContext.Provider value={socket}>
        <GameDisplayPage />
      </LiveSocketContext.Provider>,
      { store, user: null, route: '/display/game/g-1', path: '/display/game/:id' },
    );
    await screen.findByTestId('display-home-name');
    expect(server.framesOfType('subscribe')).toEqual([{ type: 'subscribe', topic: 'game:g-1' }]);
    act(() => server.receive(gameSnapshotFrame(game)));

    // The update has no player lists: the scorer's number comes from the snapshot's.
    const scored: Game = { ...game, version: 4, awayScore: 1, log: [...game.log, entry(4, { period: '2', rosterId: 'A', playerId: 'a1', playerName: 'Mia Moss' })] };
    const frame = gameUpdateFrame(scored, game);
    expect(frame.data).not.toHaveProperty('log');
    act(() => server.receive(frame));
    expect(screen.getByTestId('display-away-score')).toHaveTextContent('1');
    expect(screen.getByTestId('display-last-goal')).toHaveTextContent('#4 Mia Moss');

    // UNDO (action 5): the goal is undone, and off the board.
    act(() => server.receive(gameUpdateFrame({ ...game, version: 5, awayScore: 0 }, scored)));
    expect(screen.getByTestId('display-away-score')).toHaveTextContent('0');
    expect(screen.getByTestId('display-last-goal')).toHaveTextContent('#9 Alice Ames');
    expect(screen.getByTestId('display-state')).toHaveTextContent('1stIntermission');
    act(() => socket.stop());
  });
  it("says the game's state in its pill, not the connection's: LIVE only in play", async () => {
    const { store } = setup();
    await screen.findByTestId('display-home-name');
    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 3, data: game }));
    expect(screen.getByTestId('display-game-state')).toHaveTextContent('Live');
    // A healthy socket is a quiet dot, not a second "Live".
    expect(screen.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');
    expect(screen.getByTestId('display-connection')).toHaveTextContent('');

    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 4, data: { ...game, version: 4, status: 'FINAL' } }));
    expect(screen.getByTestId('display-game-state')).toHaveTextContent('Final');
    expect(screen.queryByText(/^live$/i)).not.toBeInTheDocument();

    act(() => store.set(connectionStateAtom, 'reconnecting'));
    expect(screen.getByTestId('display-game-state')).toHaveTextContent('Final');
    expect(screen.getByTestId('display-connection')).toHaveTextContent('Reconnecting…');
  });

  it('shows the start time in the pill and a dimmed 0 for each score before puck drop', async () => {
    const at = new Date();
    at.setHours(19, 0, 0, 0);
    const scheduled: Game = { ...game, status: 'SCHEDULED', period: null, homeScore: 0, awayScore: 0, log: [], version: 0, scheduledAt: at.toISOString() };
    setup(scheduled);
    expect(await screen.findByTestId('display-game-state')).toHaveTextContent(/^Starts 7:00\sPM$/);
    for (const side of ['home', 'away']) {
      const score = screen.getByTestId(`display-${side}-score`);
      expect(score).toHaveTextContent('0');
      expect(score).toHaveClass('dg__score--pending');
    }
  });
});

describe('gamePill', () => {
  const now = new Date(2026, 10, 20, 12, 0);
  it('names the day of a game that is not today', () => {
    expect(gamePill({ status: 'SCHEDULED', scheduledAt: new Date(2026, 10, 21, 19, 0).toISOString() }, now)).toMatch(/^Starts Tomorrow 7:00\sPM$/);
    expect(gamePill({ status: 'POSTPONED', scheduledAt: now.toISOString() }, now)).toBe('Postponed');
  });
});

describe('GameDisplayPage on game night', () => {
  const NOW = Date.now();
  const clocked: Game = {
    ...game,
    log: [
      entry(1, { type: 'START' }),
      entry(2, { rosterId: 'H', playerId: 'h1' }),
      entry(3, { type: 'END_PERIOD' }),
      entry(4, { type: 'PENALTY', period: '2', rosterId: 'A', playerId: 'a1', minutes: 2, penalty: 'MINOR', clockMs: 1_100_000 }),
      entry(5, { type: 'PENALTY', period: '2', rosterId: 'A', playerId: 'a1', minutes: 10, penalty: 'MISCONDUCT', clockMs: 1_100_000 }),
      // Away pulls its goalie: an empty net (nobody in net without a pull is not one).
      entry(6, { type: 'GOALIE', period: '2', rosterId: 'A', playerId: null, clockMs: 1_090_000 }),
    ],
    // 2nd period, 18:00 left and running: game time 1 320 000.
    clock: { phase: 'PLAY', running: true, remainingMs: 1_080_000, at: NOW, periodMs: 1_200_000, offsetMs: 1_200_000 },
    penalties: [
      { seq: 4, startMs: 1_300_000, endMs: 1_420_000 },
      { seq: 5, startMs: 1_300_000, endMs: 1_900_000 },
    ],
    shots: { home: [9, 4, 0, 0], away: [6, 2, 0, 0] },
    goalies: { home: 'h1', away: null },
  };

  it('shows the clock, the period, shots, the box by jersey number and the power play', async () => {
    setup(clocked);
    const clock = await screen.findByTestId('display-clock');
    expect(clock).toHaveTextContent(/^1[78]:\d\d$/);
    expect(Number(clock.getAttribute('data-remaining-ms'))).toBeGreaterThan(1_070_000);
    expect(clock).toHaveAttribute('data-running', 'true');
    expect(screen.getByTestId('display-state')).toHaveTextContent('2nd period');
    expect(screen.getByTestId('display-home-shots')).toHaveTextContent('13');
    expect(screen.getByTestId('display-away-shots')).toHaveTextContent('8');
    // The minor counts down (1:40 left at game time 1 320 000); the misconduct sits without a power play of its own.
    expect(screen.getByTestId('display-pen-4')).toHaveTextContent(/4\s*1:[34]\d/);
    expect(screen.getByTestId('display-pen-5')).toHaveClass('dg__pen--misconduct');
    expect(screen.getByTestId('display-home-pp')).toHaveTextContent('Power play 5v4');
    expect(screen.queryByTestId('display-away-pp')).not.toBeInTheDocument();
    expect(screen.getByTestId('display-strength')).toHaveTextContent('5v4');
    expect(screen.getByTestId('display-away-empty-net')).toHaveTextContent('Empty net');
  });

  it('counts an intermission down and says which period is next', async () => {
    setup({ ...clocked, period: '3', penalties: [], clock: { phase: 'INTERMISSION', running: false, remainingMs: 540_000, at: NOW, periodMs: 900_000, offsetMs: 2_400_000 } });
    expect(await screen.findByTestId('display-clock')).toHaveTextContent('9:00');
    expect(screen.getByTestId('display-state')).toHaveTextContent('Intermission · 3rd next');
  });

  it('keeps the board without a clock for a game from before it', async () => {
    setup({ ...clocked, clock: null });
    await screen.findByTestId('display-home-name');
    expect(screen.queryByTestId('display-clock')).not.toBeInTheDocument();
    expect(screen.getByTestId('display-state')).toHaveTextContent('2ndPeriod');
  });
});
