import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { Game, GameDocument } from '../../../lib/api-types';
import { CommandRejectedError, connectionStateAtom, LiveSocketContext, topicAtomFamily, UnknownOutcomeError, type ConnectionState } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { gameSnapshotFrame, gameUpdateFrame } from '../../../testing/game-frames';
import { openLiveSocket } from '../../../testing/open-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { logEntry, makeGame } from '../model/test-fixtures';
import { ScorekeeperConsolePage } from './console-page';

const TYPING_TIMEOUT_MS = 20_000;

function setup(game: Game, opts: { connection?: ConnectionState; extra?: Parameters<typeof mockApi>[0] } = {}) {
  const server = mockApi({ 'GET /games/g-1': game, 'GET /games/g-1/scorekeepers': [], ...opts.extra });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, opts.connection ?? 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <ScorekeeperConsolePage />
    </LiveSocketContext.Provider>,
    { store, route: '/games/g-1/score', path: '/games/:id/score' },
  );
  return { server, live, store, user: userEvent.setup() };
}

/** The state the server answers after a goal: one more for `side`, a new log entry. */
function after(game: GameDocument, patch: Partial<GameDocument>): GameDocument {
  return { ...game, version: game.version + 1, ...patch };
}

describe('ScorekeeperConsolePage', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('tells a signed-in user who may not score why, and offers the live page', async () => {
    setup(makeGame({ viewer: { canScore: false, canManage: false, lineupRosterIds: ['r-home', 'r-away'] } }));
    expect(await screen.findByTestId('not-a-scorer')).toHaveTextContent("You can't keep score for this game");
    expect(screen.queryByTestId('goal-home')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Follow it live' })).toHaveAttribute('href', '/games/g-1');
  });

  it('starts the game over the socket and moves on with the reply', async () => {
    const game = makeGame({ status: 'SCHEDULED', period: null, log: [], version: 1, scheduledAt: new Date().toISOString() });
    const { live, user } = setup(game);
    await user.click(await screen.findByTestId('start-game'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'START' });
    expect(screen.getByTestId('start-game')).toBeDisabled();
    await act(async () => live.last().resolve(after(game, { status: 'LIVE', period: '1', log: [logEntry(1, { type: 'START' })] })));
    expect(await screen.findByTestId('goal-home')).toBeEnabled();
    expect(screen.getByTestId('console-state')).toHaveTextContent('1st period');
  });

  it('records a goal with scorer and two assists in four taps; the score comes from the reply', async () => {
    const game = makeGame();
    const { live, user } = setup(game);
    await user.click(await screen.findByTestId('goal-home'));
    const sheet = screen.getByTestId('picker-sheet');
    expect(within(sheet).getByRole('heading')).toHaveTextContent('Who scored?');
    // Only dressed players can be picked (Dev Dunn is not dressed).
    expect(within(sheet).queryByTestId('pick-h4')).not.toBeInTheDocument();
    await user.click(within(sheet).getByTestId('pick-h1'));
    expect(within(screen.getByTestId('picker-sheet')).queryByTestId('pick-h1')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('pick-h2'));
    expect(screen.getByTestId('pick-h2')).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByTestId('pick-h3'));

    expect(screen.queryByTestId('picker-sheet')).not.toBeInTheDocument();
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'GOAL', rosterId: 'r-home', scorerId: 'h1', assistIds: ['h2', 'h3'] });
    // Not before the server says so.
    expect(screen.getByTestId('console-home-score')).toHaveTextContent('0');
    const goal = logEntry(2, { rosterId: 'r-home', playerId: 'h1', playerName: 'Alice Ames', assistIds: ['h2', 'h3'], assistNames: ['Bruno Berg', 'Cara Cole'] });
    await act(async () => live.last().resolve(after(game, { homeScore: 1, log: [...game.log, goal] })));
    expect(screen.getByTestId('console-home-score')).toHaveTextContent('1');
    expect(screen.getByTestId('console-status')).toHaveTextContent('Goal Blades: #9 Alice Ames');
    expect(screen.getByTestId('log-2')).toHaveTextContent('#9 Alice Ames');
    expect(screen.getByTestId('log-2')).toHaveTextContent('Assists: #12 Bruno Berg, #27 Cara Cole');
    expect(screen.getByTestId('undo')).toHaveAccessibleName('Undo Goal · #9 Alice Ames');
  });

  it('records a penalty by its type (a game without a clock asks no time)', async () => {
    const { live, user } = setup(makeGame());
    await user.click(await screen.findByTestId('penalty-away'));
    await user.click(screen.getByTestId('pick-a2'));
    expect(screen.queryByTestId('penalty-clock')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('penalty-DOUBLE_MINOR'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'PENALTY', rosterId: 'r-away', playerId: 'a2', penalty: 'DOUBLE_MINOR' });
  });

  it('prefills the penalty’s time from the clock at the tap, exact unless corrected', async () => {
    const clock = { phase: 'PLAY', running: false, remainingMs: 754_321, at: 1, periodMs: 1_200_000, offsetMs: 0 } as const;
    const { live, user } = setup(makeGame({ clock }));
    await user.click(await screen.findByTestId('penalty-home'));
    await user.click(screen.getByTestId('pick-h2'));
    expect(screen.getByTestId('penalty-clock')).toHaveValue('12:35');
    await user.click(screen.getByTestId('penalty-MINOR'));
    expect(live.last().command).toMatchObject({ type: 'PENALTY', rosterId: 'r-home', playerId: 'h2', penalty: 'MINOR', clockMs: 754_321 });
    const game = makeGame({ clock });
    await act(async () => live.last().resolve(after(game, { log: [...game.log, logEntry(2, { type: 'PENALTY', rosterId: 'r-home', playerId: 'h2', penalty: 'MINOR', minutes: 2, clockMs: 754_321 })] })));

    await user.click(screen.getByTestId('penalty-away'));
    await user.click(screen.getByTestId('pick-a1'));
    await user.clear(screen.getByTestId('penalty-clock'));
    await user.type(screen.getByTestId('penalty-clock'), '25:00');
    await user.click(screen.getByTestId('penalty-MAJOR'));
    expect(screen.getByRole('alert')).toHaveTextContent('The period is only 20:00 long.');
    await user.clear(screen.getByTestId('penalty-clock'));
    await user.type(screen.getByTestId('penalty-clock'), '13:02');
    await user.click(screen.getByTestId('penalty-GAME_MISCONDUCT'));
    expect(live.last().command).toMatchObject({ type: 'PENALTY', rosterId: 'r-away', playerId: 'a1', penalty: 'GAME_MISCONDUCT', clockMs: 782_000 });
  });

  it('asks before FINAL', async () => {
    const game = makeGame({ homeScore: 3, awayScore: 2 });
    const { live, user } = setup(game);
    await user.click(await screen.findByTestId('final'));
    expect(live.command).not.toHaveBeenCalled();
    expect(screen.getByTestId('final-confirm')).toHaveTextContent('End the game at Blades 3 – 2 Ice Hawks?');
    await user.click(screen.getByTestId('final-cancel'));
    expect(live.command).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('final'));
    await user.click(screen.getByTestId('final-confirm-yes'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'FINAL' });
    await act(async () => live.last().resolve(after(game, { status: 'FINAL', log: [...game.log, logEntry(3, { type: 'FINAL' })] })));
    expect(await screen.findByTestId('console-final')).toBeInTheDocument();
    expect(screen.getByTestId('undo')).toHaveAccessibleName('Undo Final');
  });

  it('undoes the last entry in one tap', async () => {
    const game = makeGame({ homeScore: 1, version: 3, log: [logEntry(1, { type: 'START' }), logEntry(2, { rosterId: 'r-home', playerId: 'h1' })] });
    const { live, user } = setup(game);
    await user.click(await screen.findByTestId('undo'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'UNDO' });
    await act(async () => live.last().resolve(after(game, { homeScore: 0, log: [logEntry(1, { type: 'START' })] })));
    expect(screen.getByTestId('console-home-score')).toHaveTextContent('0');
  });

  it('shows an unknown outcome honestly and lets the topic tell what happened', async () => {
    const game = makeGame();
    const { live, store, user, server } = setup(game);
    await user.click(await screen.findByTestId('goal-away'));
    await user.click(screen.getByTestId('no-scorer'));
    await act(async () => live.last().reject(new UnknownOutcomeError('c-1', true)));
    const status = screen.getByTestId('console-status');
    expect(status).toHaveAttribute('data-state', 'unknown');
    expect(status).toHaveTextContent('Goal Ice Hawks: no answer yet.');
    expect(status).toHaveTextContent('It may still have gone through');
    expect(screen.getByTestId('console-away-score')).toHaveTextContent('0');
    await waitFor(() => expect(server.callsTo('GET', '/games/g-1').length).toBeGreaterThanOrEqual(2));
    // The goal did go through: the push says so.
    act(() => store.set(topicAtomFamily('game:g-1'), { seq: 3, data: after(game, { awayScore: 1, log: [...game.log, logEntry(2, { rosterId: 'r-away' })] }) }));
    expect(screen.getByTestId('console-away-score')).toHaveTextContent('1');
  });

  it('asks the socket for a fresh snapshot when an update skips entries it never saw, and shows the older score until then', async () => {
    const game = makeGame();
    mockApi({ 'GET /games/g-1': game });
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    renderWithProviders(
      <LiveSocketContext.Provider value={socket}>
        <ScorekeeperConsolePage />
      </LiveSocketContext.Provider>,
      { store, route: '/games/g-1/score', path: '/games/:id/score' },
    );
    await screen.findByTestId('goal-home');
    act(() => server.receive(gameSnapshotFrame(game)));

    // Another score keeper's twelve goals, of which this tab missed all frames but the last.
    const goals = Array.from({ length: 12 }, (_, i) => logEntry(i + 2, { rosterId: 'r-home', playerId: 'h1', playerName: 'Alice Ames' }));
    const later = { ...game, version: 14, homeScore: 12, log: [...game.log, ...goals] };
    act(() => server.receive(gameUpdateFrame(later, { ...later, version: 13, homeScore: 11, log: later.log.slice(0, -1) })));
    expect(server.framesOfType('subscribe')).toEqual([
      { type: 'subscribe', topic: 'game:g-1' },
      { type: 'subscribe', topic: 'game:g-1', since: 2 },
    ]);
    expect(screen.getByTestId('console-home-score')).toHaveTextContent('0');
    expect(screen.queryByTestId('log-13')).not.toBeInTheDocument();

    act(() => server.receive(gameSnapshotFrame(later)));
    expect(screen.getByTestId('console-home-score')).toHaveTextContent('12');
    expect(screen.getByTestId('log-13')).toHaveTextContent('#9 Alice Ames');
    expect(screen.getByTestId('undo')).toHaveAccessibleName('Undo Goal · #9 Alice Ames');
    act(() => socket.stop());
  });

  it('explains a refusal and keeps the score', async () => {
    const { live, user } = setup(makeGame());
    await user.click(await screen.findByTestId('end-period'));
    await act(async () => live.last().reject(new CommandRejectedError('conflict', 'the game is FINAL; undo FINAL to change it')));
    expect(screen.getByTestId('console-status')).toHaveTextContent('Not recorded. The game is FINAL; undo FINAL to change it');
  });

  it('switches to the no-rights message when the server answers forbidden', async () => {
    let allowed = true;
    const game = makeGame();
    const { live, user } = setup(game, { extra: { 'GET /games/g-1': () => ({ ...game, viewer: { canScore: allowed, canManage: false } }) } });
    await user.click(await screen.findByTestId('end-period'));
    allowed = false;
    await act(async () => live.last().reject(new CommandRejectedError('forbidden', 'only the game’s score keepers may score')));
    expect(await screen.findByTestId('not-a-scorer')).toBeInTheDocument();
  });

  it('falls back to REST with an idempotency key while the socket is down', async () => {
    const game = makeGame();
    const { live, server, user } = setup(game, {
      connection: 'reconnecting',
      extra: { 'POST /games/g-1/actions': () => after(game, { period: '2', log: [...game.log, logEntry(2, { type: 'END_PERIOD' })] }) },
    });
    await user.click(await screen.findByTestId('end-period'));
    await waitFor(() => expect(server.callsTo('POST', '/games/g-1/actions')).toHaveLength(1));
    const call = server.callsTo('POST', '/games/g-1/actions')[0];
    expect(call?.body).toEqual({ type: 'END_PERIOD' });
    expect(call?.headers['Idempotency-Key']).toMatch(/.+/);
    expect(live.command).not.toHaveBeenCalled();
    expect(await screen.findByTestId('console-state')).toHaveTextContent('End of 1st');
  });

  it('sets who dressed, keeping players the scoresheet names', async () => {
    const game = makeGame({ log: [logEntry(1, { type: 'START' }), logEntry(2, { rosterId: 'r-home', playerId: 'h1' })], homeScore: 1, version: 3 });
    const { server, user } = setup(game, {
      extra: { 'PUT /games/g-1/lineups/r-home': (call) => after(game, { home: { ...game.home, players: game.home.players.map((p) => ({ ...p, dressed: (call.body as { userIds: string[] }).userIds.includes(p.userId) })) } }) },
    });
    expect(await screen.findByTestId('dressed-h1')).toBeDisabled();
    await user.click(screen.getByTestId('dressed-h2'));
    await user.click(screen.getByTestId('dressed-h4'));
    await user.click(screen.getByTestId('save-lineup-r-home'));
    await waitFor(() => expect(server.callsTo('PUT', '/games/g-1/lineups/r-home')[0]?.body).toEqual({ userIds: ['h1', 'h3', 'h4'] }));
    await waitFor(() => expect(screen.getByTestId('dressed-h4')).toBeChecked());
    expect(screen.getByTestId('dressed-h2')).not.toBeChecked();
  });

  it("offers a team's staff only their own side's lineup", async () => {
    setup(makeGame({ viewer: { canScore: true, canManage: false, lineupRosterIds: ['r-away'] } }));
    expect(await screen.findByTestId('lineup-r-away')).toBeInTheDocument();
    expect(screen.queryByTestId('lineup-tab-home')).not.toBeInTheDocument();
    expect(screen.queryByTestId('lineup-r-home')).not.toBeInTheDocument();
  });

  it('lets staff add and remove score keepers', async () => {
    let keepers = [{ userId: 'u-k', displayName: 'Kim Keeper' }];
    const { server, user } = setup(makeGame({ viewer: { canScore: true, canManage: true, lineupRosterIds: ['r-home', 'r-away'] } }), {
      extra: {
        'GET /games/g-1/scorekeepers': () => keepers,
        'GET /users': { items: [{ id: 'u-new', username: 'nora', firstName: 'Nora', lastName: 'New', profileImage: null, bio: null, profileTypes: [], createdAt: '', followerCount: 0, followingCount: 0, isFollowing: false }], nextCursor: null },
        'PUT /games/g-1/scorekeepers/:userId': (_c, p) => {
          keepers = [...keepers, { userId: p.userId ?? '', displayName: 'Nora New' }];
          return undefined;
        },
        'DELETE /games/g-1/scorekeepers/:userId': (_c, p) => {
          keepers = keepers.filter((k) => k.userId !== p.userId);
          return undefined;
        },
      },
    });
    expect(await screen.findByTestId('keeper-u-k')).toHaveTextContent('Kim Keeper');
    await user.type(screen.getByTestId('keeper-search'), 'nor');
    await user.click(await screen.findByTestId('add-keeper-u-new'));
    expect(await screen.findByTestId('keeper-u-new')).toHaveTextContent('Nora New');
    expect(server.callsTo('PUT', '/games/g-1/scorekeepers/u-new')).toHaveLength(1);
    await user.click(screen.getByTestId('remove-keeper-u-k'));
    await user.click(screen.getByTestId('remove-keeper-u-k'));
    await waitFor(() => expect(screen.queryByTestId('keeper-u-k')).not.toBeInTheDocument());
  });

  it('does not let a double tap on GOAL credit the jersey that opened under the finger', async () => {
    const { live } = setup(makeGame());
    fireEvent.click(await screen.findByTestId('goal-home'), { detail: 1 });
    // The second tap of the double tap: its click lands on the sheet without
    // a pointer having gone down on it since it opened.
    fireEvent.click(screen.getByTestId('pick-h1'), { detail: 2 });
    expect(screen.getByTestId('picker-sheet')).toHaveAttribute('data-step', 'scorer');
    // A real tap on the sheet counts, and then the next step guards itself.
    fireEvent.pointerDown(screen.getByTestId('pick-h1'));
    fireEvent.click(screen.getByTestId('pick-h1'), { detail: 1 });
    expect(screen.getByTestId('picker-sheet')).toHaveAttribute('data-step', 'assists');
    fireEvent.click(screen.getByTestId('pick-h2'), { detail: 2 });
    expect(screen.getByTestId('pick-h2')).toHaveAttribute('aria-pressed', 'false');
    // The keyboard has no pointer: Enter on a tile always counts.
    fireEvent.click(screen.getByTestId('unassisted'), { detail: 0 });
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'GOAL', rosterId: 'r-home', scorerId: 'h1' });
  });

  it('recovers by itself after an outage and sends the goal tapped meanwhile once, with its key', async () => {
    const game = makeGame();
    let down = false;
    const offline = () => {
      throw new TypeError('Failed to fetch');
    };
    const { server, store, user } = setup(game, {
      extra: {
        'GET /games/g-1': () => (down ? offline() : game),
        'POST /games/g-1/actions': () => (down ? offline() : after(game, { awayScore: 1, log: [...game.log, logEntry(2, { rosterId: 'r-away' })] })),
      },
    });
    await screen.findByTestId('goal-away');
    // The server stops: the socket says so, a re-read fails.
    down = true;
    act(() => store.set(connectionStateAtom, 'reconnecting'));
    await user.click(screen.getByTestId('goal-away'));
    await user.click(screen.getByTestId('no-scorer'));
    const status = await screen.findByTestId('console-status');
    await waitFor(() => expect(status).toHaveAttribute('data-state', 'queued'));
    expect(status).toHaveTextContent('Goal Ice Hawks: waiting for the connection.');
    expect(screen.getByTestId('goal-home')).toBeDisabled();
    const first = server.callsTo('POST', '/games/g-1/actions')[0];
    // The console stays (no "Could not reach Rinkside" in place of it).
    expect(screen.getByTestId('console-away-score')).toHaveTextContent('0');

    // Back: live again; the goal goes once more with the same key, and the console is whole.
    down = false;
    act(() => store.set(connectionStateAtom, 'live'));
    await waitFor(() => expect(screen.getByTestId('console-away-score')).toHaveTextContent('1'));
    const posts = server.callsTo('POST', '/games/g-1/actions');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.headers['Idempotency-Key']).toBe(first?.headers['Idempotency-Key']);
    expect(screen.getByTestId('console-status')).toHaveAttribute('data-state', 'done');
    expect(screen.getByTestId('goal-home')).toBeEnabled();
  });

  it('reads the game again when the connection comes back after a failed first read', async () => {
    const game = makeGame();
    let down = true;
    const { store } = setup(game, {
      connection: 'reconnecting',
      extra: {
        'GET /games/g-1': () => {
          if (down) throw new TypeError('Failed to fetch');
          return game;
        },
      },
    });
    expect(await screen.findByText('Could not load this game', {}, { timeout: 5000 })).toBeInTheDocument();
    down = false;
    act(() => store.set(connectionStateAtom, 'live'));
    expect(await screen.findByTestId('goal-home')).toBeEnabled();
  });

  it('lets the score keeper drop an action waiting for the connection', async () => {
    const game = makeGame();
    const { server, store, user } = setup(game, {
      connection: 'offline',
      extra: {
        'POST /games/g-1/actions': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    await user.click(await screen.findByTestId('end-period'));
    await user.click(await screen.findByTestId('drop-queued'));
    expect(screen.queryByTestId('console-status')).not.toBeInTheDocument();
    act(() => store.set(connectionStateAtom, 'live'));
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(server.callsTo('POST', '/games/g-1/actions')).toHaveLength(1);
  });

  it('asks before starting a game scheduled for another day', async () => {
    const game = makeGame({ status: 'SCHEDULED', period: null, log: [], version: 1, scheduledAt: new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString() });
    const { live, user } = setup(game);
    await user.click(await screen.findByTestId('start-game'));
    expect(screen.getByTestId('start-confirm')).toHaveTextContent('This game is scheduled for');
    expect(live.command).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('start-cancel'));
    expect(live.command).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('start-game'));
    await user.click(screen.getByTestId('start-confirm-yes'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'START' });
  });
  it('offers FINAL, not END OT, once the 3rd has ended with a lead', async () => {
    const game = makeGame({
      period: '3',
      homeScore: 1,
      log: [
        logEntry(1, { type: 'START' }),
        logEntry(2, { rosterId: 'r-home', playerId: 'h1' }),
        logEntry(3, { type: 'END_PERIOD', period: '1' }),
        logEntry(4, { type: 'END_PERIOD', period: '2' }),
        logEntry(5, { type: 'END_PERIOD', period: '3' }),
      ],
      version: 6,
    });
    setup(game);
    expect(await screen.findByTestId('period-over')).toHaveTextContent('Not tied: no overtime');
    expect(screen.queryByTestId('end-period')).not.toBeInTheDocument();
    expect(screen.queryByText(/End OT/i)).not.toBeInTheDocument();
    expect(screen.getByTestId('final')).toBeEnabled();
    expect(screen.getByTestId('console-state')).toHaveTextContent('End of 3rd');
  });
});
