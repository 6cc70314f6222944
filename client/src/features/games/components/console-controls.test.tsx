// The console's game-night controls, in the console page: the clock, the
// strength line, shots, goalies and UNDO.

import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { Game, GameClock, GameDocument } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext } from '../../../lib/ws';
import { timeSync } from '../../../lib/time-sync';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { logEntry, makeGame, player } from '../model/test-fixtures';
import { ScorekeeperConsolePage } from './console-page';

function setup(game: Game) {
  mockApi({ 'GET /games/g-1': game, 'GET /games/g-1/scorekeepers': [] });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <ScorekeeperConsolePage />
    </LiveSocketContext.Provider>,
    { store, route: '/games/g-1/score', path: '/games/:id/score' },
  );
  return { live, user: userEvent.setup() };
}

const after = (game: GameDocument, patch: Partial<GameDocument>): GameDocument => ({ ...game, version: game.version + 1, ...patch });

const stopped = (over: Partial<GameClock> = {}): GameClock => ({ phase: 'PLAY', running: false, remainingMs: 1_200_000, at: Date.now(), periodMs: 1_200_000, offsetMs: 0, ...over });

afterEach(() => timeSync.reset());

describe('the console clock', () => {
  it('starts with one tap and stops at the server instant of the tap', async () => {
    const game = makeGame({ clock: stopped() });
    const { live, user } = setup(game);
    expect(await screen.findByTestId('console-clock')).toHaveTextContent('20:00');
    expect(screen.getByTestId('clock-toggle')).toHaveTextContent('Start');
    await user.click(screen.getByTestId('clock-toggle'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'CLOCK_START' });

    const running = after(game, { clock: stopped({ running: true, at: Date.now() }) });
    await act(async () => live.last().resolve(running));
    expect(screen.getByTestId('clock-toggle')).toHaveTextContent('Stop');
    expect(screen.getByTestId('console-clock')).toHaveAttribute('data-running', 'true');

    // This device runs 4 s behind the server.
    timeSync.addSample({ sent: Date.now(), received: Date.now(), serverNow: Date.now() + 4000 });
    const before = Date.now() + 4000;
    await user.click(screen.getByTestId('clock-toggle'));
    const stop = live.last().command as unknown as { type: string; at: number };
    expect(stop.type).toBe('CLOCK_STOP');
    expect(stop.at).toBeGreaterThanOrEqual(before - 1);
    expect(stop.at).toBeLessThanOrEqual(Date.now() + 4000 + 1);
  });

  it('sets the clock to a typed time, with one-second nudges', async () => {
    const { live, user } = setup(makeGame({ clock: stopped({ remainingMs: 754_000 }) }));
    await user.click(await screen.findByTestId('clock-set-open'));
    expect(screen.getByTestId('clock-set-input')).toHaveValue('12:34');
    await user.click(screen.getByRole('button', { name: 'One second more' }));
    await user.click(screen.getByTestId('clock-set-save'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'CLOCK_SET', remainingMs: 755_000 });
  });

  it('offers the intermission once the period ended, and shows its countdown', async () => {
    const ended = makeGame({ period: '2', clock: stopped({ offsetMs: 1_200_000 }), log: [logEntry(1, { type: 'START' }), logEntry(2, { type: 'END_PERIOD', period: '1' }), logEntry(3, { type: 'END_PERIOD', period: '2' })] });
    const { live, user } = setup(ended);
    expect(await screen.findByTestId('clock-toggle')).toBeDisabled();
    await user.click(screen.getByTestId('intermission-15'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'INTERMISSION', minutes: 15 });
    await act(async () => live.last().resolve(after(ended, { period: '3', log: ended.log, clock: { phase: 'INTERMISSION', running: true, remainingMs: 900_000, at: Date.now(), periodMs: 900_000, offsetMs: 2_400_000 } })));
    expect(screen.getByText('Intermission · 3rd next')).toBeInTheDocument();
    expect(screen.getByTestId('clock-toggle')).toHaveTextContent('Start 3rd');
  });

  it('has no clock in a shootout', async () => {
    setup(makeGame({ period: 'SO', clock: stopped({ periodMs: 0, remainingMs: 0 }) }));
    await screen.findByTestId('goal-home');
    expect(screen.queryByTestId('console-clock')).not.toBeInTheDocument();
  });
});

describe('the console strength, shots and goalies', () => {
  it('says who is on the power play and for how long', async () => {
    const game = makeGame({
      clock: stopped({ remainingMs: 1_100_000 }),
      log: [logEntry(1, { type: 'START' }), logEntry(2, { type: 'PENALTY', rosterId: 'r-away', playerId: 'a1', penalty: 'MINOR', minutes: 2, clockMs: 1_157_000 })],
      penalties: [{ seq: 2, startMs: 43_000, endMs: 163_000 }],
    });
    setup(game);
    expect(await screen.findByTestId('strength-line')).toHaveTextContent('Blades power play 5v4 · 1:03');
    expect(screen.getByTestId('box-2')).toHaveTextContent('#4 Mia Moss');
    expect(screen.getByTestId('box-2')).toHaveTextContent('Minor');
  });

  it('counts a shot with one tap per side', async () => {
    const { live, user } = setup(makeGame({ clock: stopped(), shots: { home: [3, 1, 0, 0], away: [2, 0, 0, 0] } }));
    expect(await screen.findByTestId('shots-home')).toHaveTextContent('4');
    expect(screen.getByTestId('shots-away')).toHaveTextContent('2');
    await user.click(screen.getByTestId('shot-away'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'SHOT', rosterId: 'r-away' });
  });

  it('pulls a goalie and puts the last one back in; changes goalies among the dressed', async () => {
    const goalie = player('a9', 'Gus Gill', 30);
    const base = makeGame({ clock: stopped(), goalies: { home: null, away: 'a9' } });
    const game = { ...base, away: { ...base.away, players: [...base.away.players, { ...goalie, position: 'GOALIE' as const }] } };
    const { live, user } = setup(game);
    expect(await screen.findByTestId('goalie-away-name')).toHaveTextContent('#30 Gus Gill');
    await user.click(screen.getByTestId('pull-away'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'GOALIE', rosterId: 'r-away', playerId: null });
    const pulled = after(game, { goalies: { home: null, away: null }, log: [...game.log, logEntry(2, { type: 'GOALIE', rosterId: 'r-away', playerId: null })] });
    await act(async () => live.last().resolve(pulled));
    expect(screen.getByTestId('goalie-away-name')).toHaveTextContent('Empty net');
    expect(screen.getByTestId('empty-net-away')).toHaveTextContent('Ice Hawks net empty');
    await user.click(screen.getByTestId('pull-away'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'GOALIE', rosterId: 'r-away', playerId: 'a9' });
    await act(async () => live.last().resolve(after(pulled, { goalies: { home: null, away: 'a9' } })));

    await user.click(screen.getByTestId('change-goalie-home'));
    await user.click(screen.getByTestId('goalie-pick-h3'));
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'GOALIE', rosterId: 'r-home', playerId: 'h3' });
  });

  it('undoes the last entry without asking, naming it', async () => {
    const game = makeGame({ clock: stopped(), log: [logEntry(1, { type: 'START' }), logEntry(2, { type: 'SHOT', rosterId: 'r-away' })] });
    const { live, user } = setup(game);
    const undo = await screen.findByTestId('undo');
    expect(undo).toHaveAccessibleName('Undo Shot · Ice Hawks');
    await user.click(undo);
    expect(live.last().command).toEqual({ kind: 'gameAction', gameId: 'g-1', type: 'UNDO' });
  });
});
