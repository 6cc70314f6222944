import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { AvailabilityBoard, GameAvailability } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { openLiveSocket } from '../../../testing/open-live-socket';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { countsOf, makeAvailabilityBoard, makeAvailabilityPlayer, makeGameAvailability } from '../testing';
import { AvailabilityCard } from './availability-card';
import { AvailabilityRulesCard } from './availability-rules-card';

const TIMEOUT_MS = 20_000;
const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

const me = makeAvailabilityPlayer({ userId: 'u-me', firstName: 'Mia', lastName: 'Me', jerseyNumber: 9 });
const ada = makeAvailabilityPlayer({ userId: 'u-ada', firstName: 'Ada', lastName: 'Aho', jerseyNumber: 4, answer: 'IN', answeredAt: at(-5) });
const dan = makeAvailabilityPlayer({ userId: 'u-dan', firstName: 'Dan', lastName: 'Dee', jerseyNumber: 2, position: 'LEFT_DEFENSE', group: 'DEFENCE', answer: 'OUT', late: true });
const gus = makeAvailabilityPlayer({ userId: 'u-gus', firstName: 'Gus', lastName: 'Goal', jerseyNumber: 30, position: 'GOALIE', group: 'GOALIES' });
const sam = makeAvailabilityPlayer({ userId: 'u-sam', firstName: 'Sam', lastName: 'Sub', position: 'RIGHT_WING', group: 'SUBS', commitmentLevel: 'SUBSTITUTE' });

/** A game two days ahead with these players, counted as the server counts them. */
function game(over: Partial<GameAvailability> = {}): GameAvailability {
  const players = over.players ?? [me, ada, dan, gus, sam];
  return makeGameAvailability({ startsAt: at(48), locksAt: at(46), players, counts: countsOf(players), ...over });
}

function withAnswer(g: GameAvailability, userId: string, answer: 'IN' | 'OUT'): GameAvailability {
  const players = g.players.map((p) => (p.userId === userId ? { ...p, answer, answeredAt: new Date().toISOString() } : p));
  return { ...g, players, counts: countsOf(players) };
}

function setup(routes: Parameters<typeof mockApi>[0], { isStaff = false, store = createStore() } = {}) {
  const server = mockApi(routes);
  const live = fakeLiveSocket();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <AvailabilityCard rosterId="r-1" teamId="t-1" myId="u-me" isStaff={isStaff} />
      {isStaff && <AvailabilityRulesCard rosterId="r-1" />}
    </LiveSocketContext.Provider>,
    { store, route: '/rosters/r-1' },
  );
  const push = (seq: number, board: AvailabilityBoard) => act(() => store.set(topicAtomFamily('availability:r-1'), { seq, data: board }));
  return { server, live, store, push, user: userEvent.setup() };
}

describe('AvailabilityCard', { timeout: TIMEOUT_MS }, () => {
  it('shows each game with its counts, what is short and the lock, and takes my answer in one tap', async () => {
    const first = game({ short: { skaters: 0, goalies: 1 } });
    const { server, live, push, user } = setup({
      'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [first] }),
      'PUT /rosters/r-1/availability/g-1/players/u-me': (call) => withAnswer(first, 'u-me', (call.body as { answer: 'IN' | 'OUT' }).answer),
    });
    const card = await screen.findByTestId('avail-game-g-1');
    expect(live.subscribe).toHaveBeenCalledWith('availability:r-1');
    expect(within(card).getByRole('link', { name: 'Frozen Assets vs Bears' })).toHaveAttribute('href', '/games/g-1');
    expect(within(card).getByTestId('avail-when')).toHaveTextContent('Home vs Bears');
    expect(within(card).getByTestId('avail-lock')).toHaveTextContent(/^Answers lock \w{3} \d{1,2}:\d{2} [AP]M/);
    expect(within(card).getByTestId('avail-count-skaters')).toHaveTextContent('Skaters 1 in · 0 out · 1 no answer');
    expect(within(card).getByTestId('avail-count-defence')).toHaveTextContent('Defence 0 in · 1 out · 0 no answer');
    expect(within(card).getByTestId('avail-count-goalies')).toHaveTextContent('Goalies 0 in · 0 out · 1 no answer');
    expect(within(card).getByTestId('avail-count-subs')).toHaveTextContent('Subs 0 in · 0 out · 1 no answer');
    expect(within(card).getByTestId('avail-short')).toHaveTextContent('Short 1 goalie');
    expect(within(card).getByTestId('avail-my-answer')).toHaveTextContent('No answer');
    // A player has no staff tools.
    expect(within(card).queryByTestId('avail-nudge')).not.toBeInTheDocument();
    expect(within(card).queryByTestId('avail-subs-call')).not.toBeInTheDocument();

    await user.click(within(card).getByTestId('avail-me-in'));
    await waitFor(() => expect(server.callsTo('PUT', '/rosters/r-1/availability/g-1/players/u-me')).toHaveLength(1));
    expect(server.callsTo('PUT', '/rosters/r-1/availability/g-1/players/u-me')[0]?.body).toEqual({ answer: 'IN' });
    // The reply shows at once.
    expect(await within(card).findByText('Skaters 2 in · 0 out · 0 no answer')).toBeInTheDocument();
    expect(within(card).getByTestId('avail-my-answer')).toHaveTextContent('In');
    expect(within(card).getByTestId('avail-me-in')).toHaveAttribute('aria-pressed', 'true');

    // Then the topic: the snapshot, and Gus saying in elsewhere, live.
    const mine = withAnswer(first, 'u-me', 'IN');
    push(3, makeAvailabilityBoard({ games: [mine] }));
    push(4, makeAvailabilityBoard({ games: [{ ...withAnswer(mine, 'u-gus', 'IN'), short: { skaters: 0, goalies: 0 } }] }));
    expect(within(card).getByTestId('avail-count-goalies')).toHaveTextContent('Goalies 1 in · 0 out · 0 no answer');
    expect(within(card).queryByTestId('avail-short')).not.toBeInTheDocument();
    expect(within(card).getByTestId('avail-my-answer')).toHaveTextContent('In');
  });

  it('follows the frames of the availability topic: the snapshot, one game at a time, a rules change, and drops a stale one', async () => {
    const first = game();
    const second = game({ gameId: 'g-2', title: 'Frozen Assets vs Wolves', startsAt: at(96), locksAt: null });
    mockApi({ 'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [first] }) });
    const store = createStore();
    const { socket, server } = await openLiveSocket(store);
    try {
      renderWithProviders(
        <LiveSocketContext.Provider value={socket}>
          <AvailabilityCard rosterId="r-1" teamId="t-1" myId="u-me" isStaff={false} />
        </LiveSocketContext.Provider>,
        { store },
      );
      const card = await screen.findByTestId('avail-game-g-1');
      const frame = (f: object) => act(() => server.receive(f));
      frame({ type: 'snapshot', topic: 'availability:r-1', seq: 5, data: makeAvailabilityBoard({ games: [first] }) });
      frame({ type: 'update', topic: 'availability:r-1', seq: 6, data: { game: withAnswer(first, 'u-gus', 'IN') } });
      expect(within(card).getByTestId('avail-count-goalies')).toHaveTextContent('Goalies 1 in · 0 out · 0 no answer');
      // A game the board did not hold goes in start order.
      frame({ type: 'update', topic: 'availability:r-1', seq: 7, data: { game: second } });
      expect(screen.getAllByTestId(/^avail-game-/).map((el) => el.dataset.testid)).toEqual(['avail-game-g-1', 'avail-game-g-2']);
      // An update older than what is held changes nothing.
      frame({ type: 'update', topic: 'availability:r-1', seq: 6, data: { game: first } });
      expect(within(screen.getByTestId('avail-game-g-1')).getByTestId('avail-count-goalies')).toHaveTextContent('Goalies 1 in · 0 out · 0 no answer');
      // The rules changed: the whole board.
      frame({ type: 'update', topic: 'availability:r-1', seq: 8, data: { rules: { lockMinutes: 60, minSkaters: null, minGoalies: null }, games: [{ ...second, locksAt: at(95) }] } });
      expect(screen.queryByTestId('avail-game-g-1')).not.toBeInTheDocument();
      expect(within(screen.getByTestId('avail-game-g-2')).getByTestId('avail-lock')).toHaveTextContent(/^Answers lock /);
    } finally {
      socket.stop();
    }
  });

  it('lists the players by group with their answers and a late drop-out marked', async () => {
    const { user } = setup({ 'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [game()] }) });
    const card = await screen.findByTestId('avail-game-g-1');
    expect(within(card).queryByTestId('avail-players')).not.toBeInTheDocument();
    await user.click(within(card).getByTestId('avail-players-toggle'));
    const groups = within(card).getByTestId('avail-players');
    expect(within(groups).getAllByRole('heading').map((h) => h.textContent)).toEqual(['Skaters', 'Defence', 'Goalies', 'Subs']);
    expect(within(within(groups).getByRole('region', { name: 'Skaters' })).getByTestId('avail-player-u-ada')).toHaveTextContent('In');
    const danRow = within(groups).getByTestId('avail-player-u-dan');
    expect(within(danRow).getByTestId('avail-answer')).toHaveTextContent('Out');
    expect(within(danRow).getByTestId('avail-late')).toHaveTextContent('late');
    expect(within(within(groups).getByTestId('avail-player-u-gus')).getByTestId('avail-answer')).toHaveTextContent('No answer');
    expect(within(groups).getByRole('region', { name: 'Subs' })).toHaveTextContent('Sam Sub');
    // No set buttons for a player.
    expect(within(groups).queryByTestId('avail-set-in-u-gus')).not.toBeInTheDocument();
  });

  it('after the lock a player may only say out, and is told so', async () => {
    const locked = game({ locksAt: at(-1), locked: true });
    const { server, user } = setup({
      'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [locked] }),
      'PUT /rosters/r-1/availability/g-1/players/u-me': () => ({ ...withAnswer(locked, 'u-me', 'OUT'), players: withAnswer(locked, 'u-me', 'OUT').players.map((p) => (p.userId === 'u-me' ? { ...p, late: true } : p)) }),
    });
    const card = await screen.findByTestId('avail-game-g-1');
    expect(within(card).getByTestId('avail-lock')).toHaveTextContent('Locked');
    expect(within(card).getByTestId('avail-me-in')).toBeDisabled();
    expect(within(card).getByTestId('avail-me')).toHaveTextContent('Answers are locked — you can still say you’re out.');
    await user.click(within(card).getByTestId('avail-me-out'));
    await waitFor(() => expect(server.callsTo('PUT', '/rosters/r-1/availability/g-1/players/u-me')[0]?.body).toEqual({ answer: 'OUT' }));
    expect(await within(card).findByText('late')).toBeInTheDocument();
    expect(within(card).getByTestId('avail-my-answer')).toHaveTextContent('Out');
  });

  it("shows the server's refusal of an answer", async () => {
    const { user } = setup({
      'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [game()] }),
      'PUT /rosters/r-1/availability/g-1/players/u-me': apiError(409, 'conflict', "Answers locked at 7:30 PM — you can still say you're out"),
    });
    const card = await screen.findByTestId('avail-game-g-1');
    await user.click(within(card).getByTestId('avail-me-in'));
    expect(await within(card).findByTestId('avail-answer-error')).toHaveTextContent("Answers locked at 7:30 PM — you can still say you're out");
  });

  it('lets the staff nudge who has not answered, says when, and shows a second nudge refused in the server’s words', async () => {
    const nudgedAt = new Date(Date.now() - 3 * 60_000).toISOString();
    let nudges = 0;
    const { server, user } = setup(
      {
        'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [game()] }),
        'GET /rosters/r-1/availability-rules': { lockMinutes: 120, minSkaters: null, minGoalies: null },
        'POST /rosters/r-1/availability/g-1/nudge': () => {
          nudges += 1;
          return nudges === 1 ? { nudged: 3, nudgedAt } : apiError(409, 'conflict', 'Nudged 3 minutes ago: the next nudge may go at 9:12 PM');
        },
      },
      { isStaff: true },
    );
    const card = await screen.findByTestId('avail-game-g-1');
    const nudge = within(card).getByTestId('avail-nudge');
    expect(nudge).toHaveTextContent("Nudge 3 who haven't answered");
    expect(within(card).queryByTestId('avail-nudged')).not.toBeInTheDocument();
    await user.click(nudge);
    expect(await within(card).findByTestId('avail-nudged')).toHaveTextContent('Nudged 3 min ago');
    expect(server.callsTo('POST', '/rosters/r-1/availability/g-1/nudge')).toHaveLength(1);
    expect(server.callsTo('POST', '/rosters/r-1/availability/g-1/nudge')[0]?.body).toEqual({});

    await user.click(within(card).getByTestId('avail-nudge'));
    expect(await within(card).findByTestId('avail-nudge-error')).toHaveTextContent('Nudged 3 minutes ago: the next nudge may go at 9:12 PM');
  });

  it("lets the staff set a player's answer on a native game, not on an imported one", async () => {
    const first = game();
    const imported = game({ gameId: 'e-7', kind: 'EVENT', title: 'Frozen Assets vs Wolves', startsAt: at(72), locksAt: null });
    const { server, user } = setup(
      {
        'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [first, imported] }),
        'GET /rosters/r-1/availability-rules': { lockMinutes: null, minSkaters: null, minGoalies: null },
        'PUT /rosters/r-1/availability/g-1/players/u-gus': () => withAnswer(first, 'u-gus', 'IN'),
      },
      { isStaff: true },
    );
    const card = await screen.findByTestId('avail-game-g-1');
    await user.click(within(card).getByTestId('avail-players-toggle'));
    await user.click(within(card).getByRole('button', { name: 'Gus Goal: in' }));
    await waitFor(() => expect(server.callsTo('PUT', '/rosters/r-1/availability/g-1/players/u-gus')[0]?.body).toEqual({ answer: 'IN' }));
    expect(await within(card).findByText('Goalies 1 in · 0 out · 0 no answer')).toBeInTheDocument();

    const other = screen.getByTestId('avail-game-e-7');
    expect(within(other).getByRole('link', { name: 'Frozen Assets vs Wolves' })).toHaveAttribute('href', '/events/e-7');
    await user.click(within(other).getByTestId('avail-players-toggle'));
    expect(within(other).queryByTestId('avail-set-in-u-gus')).not.toBeInTheDocument();
  });

  it('posts a call for subs for exactly what is short, then says it is up with the way to the subs board', async () => {
    const short = game({ short: { skaters: 0, goalies: 1 } });
    const { server, user } = setup(
      {
        'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [short] }),
        'GET /rosters/r-1/availability-rules': { lockMinutes: 120, minSkaters: null, minGoalies: 1 },
        'GET /me/statuses': { items: [] },
        'POST /statuses': (call) => reply(201, { id: 'st-1', ...(call.body as object), userId: 'u-me', level: null, createdAt: at(0), updatedAt: at(0), user: null, team: null, event: null }),
      },
      { isStaff: true },
    );
    const card = await screen.findByTestId('avail-game-g-1');
    const post = await within(card).findByTestId('avail-subs-call');
    await waitFor(() => expect(post).toBeEnabled());
    await user.click(post);
    await waitFor(() => expect(server.callsTo('POST', '/statuses')).toHaveLength(1));
    expect(server.callsTo('POST', '/statuses')[0]?.body).toEqual({
      type: 'LOOKING_FOR_SUBS',
      entityType: 'TEAM',
      teamId: 't-1',
      positions: ['GOALIE'],
      message: expect.stringMatching(/^Short 1 goalie for \w{3} \d{1,2}:\d{2} [AP]M vs Bears — come play\.$/),
      expiresAt: short.startsAt,
    });
    const posted = await within(card).findByTestId('avail-subs-posted');
    expect(posted).toHaveTextContent('Call posted');
    expect(within(posted).getByRole('link', { name: 'Subs board' })).toHaveAttribute('href', '/subs?type=LOOKING_FOR_SUBS');
  });

  it("says a call is already up for the game, and shows a refused call's reason", async () => {
    const short = game({ short: { skaters: 2, goalies: 0 } });
    const later = game({ gameId: 'g-2', startsAt: at(96), locksAt: null, short: { skaters: 1, goalies: 0 } });
    const up = { id: 'st-1', type: 'LOOKING_FOR_SUBS', entityType: 'TEAM', teamId: 't-1', eventId: null, expiresAt: short.startsAt, positions: [] };
    setup(
      {
        'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [short, later] }),
        'GET /rosters/r-1/availability-rules': { lockMinutes: null, minSkaters: 12, minGoalies: null },
        'GET /me/statuses': { items: [up] },
        'POST /statuses': apiError(409, 'conflict', 'The team already has an active LOOKING_FOR_SUBS status'),
      },
      { isStaff: true },
    );
    expect(await within(await screen.findByTestId('avail-game-g-1')).findByTestId('avail-subs-posted')).toHaveTextContent('Call posted');
    const second = screen.getByTestId('avail-game-g-2');
    const post = await within(second).findByTestId('avail-subs-call');
    await waitFor(() => expect(post).toBeEnabled());
    await userEvent.click(post);
    expect(await within(second).findByTestId('avail-subs-error')).toHaveTextContent('The team already has an active LOOKING_FOR_SUBS status');
  });

  it('says when no games are coming, and stays away from a server without the board', async () => {
    setup({ 'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }) });
    expect(await screen.findByTestId('avail-empty')).toHaveTextContent('No games in the next 60 days.');
  });

  it('stays away when the board is not mine to read', async () => {
    const { server } = setup({ 'GET /rosters/r-1/availability': apiError(404, 'not_found', 'not found') });
    await waitFor(() => expect(server.callsTo('GET', '/rosters/r-1/availability')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('availability-card')).not.toBeInTheDocument());
  });
});

describe('AvailabilityRulesCard', { timeout: TIMEOUT_MS }, () => {
  it('saves the lock and minimums with a preview, and puts a refusal beside its field', async () => {
    let puts = 0;
    const { server, user } = setup(
      {
        'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [game()] }),
        'GET /rosters/r-1/availability-rules': { lockMinutes: null, minSkaters: null, minGoalies: null },
        'PUT /rosters/r-1/availability-rules': (call) => {
          puts += 1;
          return puts === 1 ? apiError(422, 'validation_failed', 'invalid rules', { minSkaters: 'must be at most 50' }) : call.body;
        },
      },
      { isStaff: true },
    );
    const form = await screen.findByTestId('avail-rules-form');
    expect(within(form).getByTestId('avail-rules-preview')).toHaveTextContent('No lock: players can say they’re in until puck drop.');
    expect(within(form).getByTestId('avail-rules-save')).toBeDisabled();

    await user.type(within(form).getByTestId('avail-rules-lockHours'), '2');
    await user.type(within(form).getByTestId('avail-rules-minSkaters'), '10');
    await user.type(within(form).getByTestId('avail-rules-minGoalies'), '1');
    expect(within(form).getByTestId('avail-rules-preview')).toHaveTextContent(/Answers lock 2 hours before puck drop \(\w{3} \d{1,2}:\d{2} [AP]M( [A-Z]+)? for the next game\)/);
    expect(within(form).getByTestId('avail-rules-preview')).toHaveTextContent('You need 10 skaters and 1 goalie in');

    await user.click(within(form).getByTestId('avail-rules-save'));
    expect(await within(form).findByText('Must be at most 50')).toBeInTheDocument();
    expect(server.callsTo('PUT', '/rosters/r-1/availability-rules')[0]?.body).toEqual({ lockMinutes: 120, minSkaters: 10, minGoalies: 1 });

    // Typing clears the field's complaint; the second save goes through.
    await user.clear(within(form).getByTestId('avail-rules-minSkaters'));
    await user.type(within(form).getByTestId('avail-rules-minSkaters'), '9');
    expect(within(form).queryByText('Must be at most 50')).not.toBeInTheDocument();
    await user.click(within(form).getByTestId('avail-rules-save'));
    expect(await within(form).findByTestId('avail-rules-saved')).toHaveTextContent('Saved');
    expect(server.callsTo('PUT', '/rosters/r-1/availability-rules')[1]?.body).toEqual({ lockMinutes: 120, minSkaters: 9, minGoalies: 1 });
  });

  it('checks the bounds before sending', async () => {
    const { server, user } = setup(
      {
        'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }),
        'GET /rosters/r-1/availability-rules': { lockMinutes: null, minSkaters: null, minGoalies: null },
      },
      { isStaff: true },
    );
    const form = await screen.findByTestId('avail-rules-form');
    await user.type(within(form).getByTestId('avail-rules-minGoalies'), '11');
    await user.click(within(form).getByTestId('avail-rules-save'));
    expect(await within(form).findByText('At most 10.')).toBeInTheDocument();
    expect(server.callsTo('PUT', '/rosters/r-1/availability-rules')).toHaveLength(0);
  });
});
