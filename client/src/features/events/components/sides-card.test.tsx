import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { SidePlayer, SidesDoc } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { makeEvent, makeViewer } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { AttendeesDoc } from '../model/types';
import { EventPage } from './event-page';
import { SidesCard } from './sides-card';

const TYPING_TIMEOUT_MS = 20_000;

const player = (userId: string, role: SidePlayer['role'], level: number | null, present = true): SidePlayer => ({
  userId,
  displayName: `Player ${userId}`,
  position: role === 'GOALIE' ? 'GOALIE' : role === 'DEFENCE' ? 'LEFT_DEFENSE' : 'CENTER',
  role,
  level,
  present,
});

const totals = (goalies: number, defence: number, forwards: number, levelSum: number) => ({ goalies, defence, forwards, levelSum });

function sides(over: Partial<SidesDoc> = {}): SidesDoc {
  return {
    eventId: 'e-1',
    version: 1,
    madeAt: '2030-11-30T20:00:00Z',
    seed: 7,
    dark: [player('g1', 'GOALIE', 5), player('d1', 'DEFENCE', 4), player('f1', 'FORWARD', 6)],
    light: [player('g2', 'GOALIE', 4), player('d2', 'DEFENCE', 5), player('u-me', 'FORWARD', null)],
    unassigned: [],
    totals: { dark: totals(1, 1, 1, 15), light: totals(1, 1, 1, 13) },
    ...over,
  };
}

const notMade = (): SidesDoc => ({
  ...sides(),
  version: 0,
  madeAt: null,
  seed: null,
  dark: [],
  light: [],
  unassigned: [player('g1', 'GOALIE', 5), player('f1', 'FORWARD', 6)],
  totals: { dark: totals(0, 0, 0, 0), light: totals(0, 0, 0, 0) },
});

function renderCard(routes: Parameters<typeof mockApi>[0], props: { isOrganiser: boolean; mySide?: 'DARK' | 'LIGHT' | null }) {
  const server = mockApi(routes);
  renderWithProviders(<SidesCard eventId="e-1" isOrganiser={props.isOrganiser} myId="u-me" mySide={props.mySide ?? null} />);
  return { server, user: userEvent.setup() };
}

describe('SidesCard', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('lets the organiser make teams in one tap and shows both sides with their balance', async () => {
    let doc = notMade();
    const { server, user } = renderCard(
      {
        'GET /events/e-1/sides': () => doc,
        'POST /events/e-1/sides': () => (doc = sides()),
      },
      { isOrganiser: true },
    );
    const make = await screen.findByTestId('make-sides');
    expect(screen.getByTestId('sides')).toHaveTextContent('2 players in.');
    await user.click(make);
    expect(server.callsTo('POST', '/events/e-1/sides')[0]?.body).toEqual({ action: 'MAKE' });

    const dark = await screen.findByTestId('side-DARK');
    const light = screen.getByTestId('side-LIGHT');
    expect(within(dark).getByText('Player g1')).toBeInTheDocument();
    expect(within(light).getByText('Player d2')).toBeInTheDocument();
    // Role badge and level, read out in words.
    expect(within(dark).getByTestId('side-player-g1')).toHaveAccessibleName(/Player g1, Goalie, level 5, Dark/);
    expect(within(dark).getByTestId('side-player-f1')).toHaveTextContent('F');
    expect(within(dark).getByTestId('side-player-f1')).toHaveTextContent('6');
    expect(screen.getByTestId('sides-totals-DARK')).toHaveTextContent('1 G1 D1 FLevel 15');
    expect(screen.getByTestId('sides-totals-LIGHT')).toHaveTextContent('Level 13');
    expect(screen.queryByTestId('make-sides')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('reroll-sides'));
    expect(server.callsTo('POST', '/events/e-1/sides')[1]?.body).toEqual({ action: 'REROLL' });
    await user.click(screen.getByTestId('rebalance-sides'));
    await waitFor(() => expect(server.callsTo('POST', '/events/e-1/sides')[2]?.body).toEqual({ action: 'REBALANCE' }));
  });

  it('swaps two players with two taps, and a second tap on the same player lets go', async () => {
    let doc = sides();
    const { server, user } = renderCard(
      {
        'GET /events/e-1/sides': () => doc,
        'POST /events/e-1/sides/swap': () =>
          (doc = sides({
            dark: [player('g1', 'GOALIE', 5), player('d2', 'DEFENCE', 5), player('f1', 'FORWARD', 6)],
            light: [player('g2', 'GOALIE', 4), player('d1', 'DEFENCE', 4), player('u-me', 'FORWARD', null)],
            totals: { dark: totals(1, 1, 1, 16), light: totals(1, 1, 1, 12) },
          })),
      },
      { isOrganiser: true },
    );
    const d1 = await screen.findByTestId('side-player-d1');
    await user.click(d1);
    expect(d1).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('pick-hint')).toHaveTextContent('Tap a player on Light to swap with Player d1.');
    await user.click(d1);
    expect(d1).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByTestId('pick-hint')).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/events/e-1/sides/swap')).toHaveLength(0);

    // Another on the same side moves the selection; one on the other side swaps.
    await user.click(d1);
    await user.click(screen.getByTestId('side-player-f1'));
    expect(screen.getByTestId('side-player-f1')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('side-player-d1')).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByTestId('side-player-d1'));
    await user.click(screen.getByTestId('side-player-d2'));
    await waitFor(() => expect(server.callsTo('POST', '/events/e-1/sides/swap')[0]?.body).toEqual({ userIds: ['d1', 'd2'] }));
    await waitFor(() => expect(within(screen.getByTestId('side-LIGHT')).getByText('Player d1')).toBeInTheDocument());
    expect(within(screen.getByTestId('side-DARK')).getByText('Player d2')).toBeInTheDocument();
    expect(screen.getByTestId('sides-totals-DARK')).toHaveTextContent('Level 16');
    expect(screen.queryByTestId('pick-hint')).not.toBeInTheDocument();
  });

  it('shows a drop-out struck through and a newcomer waiting, who goes on the side the organiser taps', async () => {
    const placed = (side: 'DARK' | 'LIGHT') =>
      sides({
        dark: [player('g1', 'GOALIE', 5), player('d1', 'DEFENCE', 4, false), player('f1', 'FORWARD', 6), ...(side === 'DARK' ? [player('n1', 'FORWARD', 3)] : [])],
        light: [player('g2', 'GOALIE', 4), player('d2', 'DEFENCE', 5), player('u-me', 'FORWARD', null), ...(side === 'LIGHT' ? [player('n1', 'FORWARD', 3)] : [])],
      });
    let doc = sides({ dark: [player('g1', 'GOALIE', 5), player('d1', 'DEFENCE', 4, false), player('f1', 'FORWARD', 6)], unassigned: [player('n1', 'FORWARD', 3)] });
    const { server, user } = renderCard(
      {
        'GET /events/e-1/sides': () => doc,
        'POST /events/e-1/sides/swap': (call) => (doc = placed((call.body as { side: 'DARK' | 'LIGHT' }).side)),
      },
      { isOrganiser: true },
    );
    const hole = await screen.findByTestId('side-player-d1');
    expect(hole).toHaveAttribute('data-present', 'false');
    expect(hole).toHaveTextContent('dropped');
    expect(hole.tagName).toBe('LI');
    const strip = screen.getByTestId('sides-newcomers');
    expect(strip).toHaveTextContent('Not on a side yet');
    expect(strip).toHaveTextContent('Re-balance to place them fairly');
    // With a hole or a newcomer, Re-balance is the button to press.
    expect(screen.getByTestId('rebalance-sides')).toHaveClass('btn--primary');

    await user.click(within(strip).getByTestId('side-player-n1'));
    expect(screen.getByTestId('pick-hint')).toHaveTextContent('Tap Dark or Light to put Player n1 there.');
    await user.click(screen.getByRole('button', { name: 'Put Player n1 on Light' }));
    await waitFor(() => expect(server.callsTo('POST', '/events/e-1/sides/swap')).toHaveLength(1));
    expect(server.callsTo('POST', '/events/e-1/sides/swap')[0]?.body).toEqual({ userIds: ['n1'], side: 'LIGHT' });
    await waitFor(() => expect(within(screen.getByTestId('side-LIGHT')).getByText('Player n1')).toBeInTheDocument());
    expect(screen.queryByTestId('sides-newcomers')).not.toBeInTheDocument();
  });

  it('puts a newcomer on a side with "Put on a side" (one id: the server picks the smaller side)', async () => {
    let doc = sides({ unassigned: [player('n1', 'FORWARD', 3)] });
    const { server, user } = renderCard(
      {
        'GET /events/e-1/sides': () => doc,
        'POST /events/e-1/sides/swap': () => (doc = sides({ dark: [...sides().dark, player('n1', 'FORWARD', 3)] })),
      },
      { isOrganiser: true },
    );
    await user.click(await screen.findByTestId('side-player-n1'));
    await user.click(screen.getByTestId('put-on-side'));
    await waitFor(() => expect(server.callsTo('POST', '/events/e-1/sides/swap')[0]?.body).toEqual({ userIds: ['n1'] }));
    await waitFor(() => expect(within(screen.getByTestId('side-DARK')).getByText('Player n1')).toBeInTheDocument());
    expect(server.callsTo('POST', '/events/e-1/sides/swap')).toHaveLength(1);
  });

  it('shows the server\'s refusal inline', async () => {
    const { user } = renderCard(
      {
        'GET /events/e-1/sides': () => ({ ...notMade(), unassigned: [player('f1', 'FORWARD', 6)] }),
        'POST /events/e-1/sides': apiError(409, 'not_enough_players', 'Two players at least are needed to make sides.'),
      },
      { isOrganiser: true },
    );
    await user.click(await screen.findByTestId('make-sides'));
    expect(await screen.findByTestId('sides-error')).toHaveTextContent('Two players at least are needed to make sides.');
  });

  it('tells a player their side in a banner, and gives them nothing to tap', async () => {
    renderCard({ 'GET /events/e-1/sides': sides() }, { isOrganiser: false, mySide: 'LIGHT' });
    const banner = await screen.findByTestId('my-side');
    expect(banner).toHaveTextContent("You're on Light");
    expect(banner).toHaveClass('my-side--light');
    expect(banner).toHaveTextContent('2 teammates with you.');
    expect(within(screen.getByTestId('side-LIGHT')).getByTestId('side-player-u-me')).toHaveTextContent('You');
    expect(within(screen.getByTestId('sides')).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByTestId('make-sides')).not.toBeInTheDocument();
    expect(screen.queryByTestId('reroll-sides')).not.toBeInTheDocument();
  });

  it('shows a player nothing before the teams are made, or when the server keeps no sides', async () => {
    const { server } = renderCard({ 'GET /events/e-1/sides': notMade() }, { isOrganiser: false });
    await waitFor(() => expect(server.callsTo('GET', '/events/e-1/sides')).toHaveLength(1));
    expect(screen.queryByTestId('sides')).not.toBeInTheDocument();
  });
});

describe('EventPage with sides', { timeout: TYPING_TIMEOUT_MS }, () => {
  const attendees = (version: number): AttendeesDoc => ({
    version,
    attending: ['g1', 'd1', 'f1', 'g2', 'd2', 'u-me'].map((userId) => ({ userId, displayName: `Player ${userId}`, position: 'CENTER', respondedAt: '2026-11-01T00:00:00Z', isPaid: null })),
    waitlist: [],
    counts: { skaters: 4, goalies: 2, maxSkaters: 10, maxGoalies: 2, waitlistSkaters: 0, waitlistGoalies: 0 },
  });

  it('reads the sides again on a push, so a player sees their side change without a reload', async () => {
    let side: 'DARK' | 'LIGHT' = 'LIGHT';
    const doc = () =>
      side === 'LIGHT'
        ? sides()
        : sides({ dark: [...sides().dark, player('u-me', 'FORWARD', null)], light: sides().light.filter((p) => p.userId !== 'u-me'), version: 2 });
    const server = mockApi({
      'GET /events/e-1': () => makeEvent({ eventType: 'OTHER', title: 'Tuesday pickup', version: side === 'LIGHT' ? 2 : 3, viewer: makeViewer({ status: 'ATTENDING', side }) }),
      'GET /events/e-1/attendees': attendees(2),
      'GET /events/e-1/sides': () => doc(),
      'GET /me/positions': [],
    });
    const live = fakeLiveSocket();
    const store = createStore();
    store.set(connectionStateAtom, 'live');
    renderWithProviders(
      <LiveSocketContext.Provider value={live.socket}>
        <EventPage />
      </LiveSocketContext.Provider>,
      { store, route: '/events/e-1', path: '/events/:id' },
    );
    expect(await screen.findByTestId('my-side')).toHaveTextContent("You're on Light");
    // Only organisers and the rink's staff read the bill.
    expect(server.callsTo('GET', '/events/e-1/bill')).toHaveLength(0);

    side = 'DARK';
    act(() => store.set(topicAtomFamily('event:e-1'), { seq: 3, data: attendees(3) }));
    await waitFor(() => expect(screen.getByTestId('my-side')).toHaveTextContent("You're on Dark"), { timeout: 3000 });
    expect(server.callsTo('GET', '/events/e-1/sides').length).toBeGreaterThanOrEqual(2);
  });

  it('stops grouping the list by its own rule once the organiser has made sides', async () => {
    const groupConfig = { balanceBy: 'POSITION' as const, groups: [{ name: 'Red', color: '#c0392b' }, { name: 'Blue', color: '#2980b9' }] };
    let doc = notMade();
    mockApi({
      'GET /events/e-1': makeEvent({ eventType: 'PRACTICE', groupConfig, viewer: makeViewer({ isOrganiser: true }) }),
      'GET /events/e-1/attendees': attendees(1),
      'GET /events/e-1/sides': () => doc,
      'POST /events/e-1/sides': () => (doc = sides()),
      'GET /events/e-1/bill': apiError(404, 'not_found', 'no bill'),
      'GET /me/positions': [],
      'GET /me/teams': { items: [], nextCursor: null },
    });
    renderWithProviders(<EventPage />, { route: '/events/e-1', path: '/events/:id' });
    expect(await screen.findByTestId('group-0')).toHaveTextContent('Red');
    await userEvent.setup().click(await screen.findByTestId('make-sides'));
    await waitFor(() => expect(within(screen.getByTestId('attendees')).queryByText('Red')).not.toBeInTheDocument());
    expect(within(screen.getByTestId('attendees')).getByText('Player d1')).toBeInTheDocument();
  });

  it('shows no teams on a game, and reads none', async () => {
    const server = mockApi({
      'GET /events/e-1': makeEvent({ eventType: 'GAME', viewer: makeViewer({ isOrganiser: true }) }),
      'GET /events/e-1/attendees': attendees(1),
      'GET /me/positions': [],
      'GET /me/teams': { items: [], nextCursor: null },
    });
    renderWithProviders(<EventPage />, { route: '/events/e-1', path: '/events/:id' });
    await screen.findByTestId('organiser-tools');
    expect(screen.queryByTestId('sides')).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/events/e-1/sides')).toHaveLength(0);
  });
});
