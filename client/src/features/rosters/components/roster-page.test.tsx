import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import type { Roster, RosterDocument } from '../../../lib/api-types';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeAvailabilityBoard, makeAvailabilityPlayer, makeGameAvailability, makeJoinRequest, makePlayer, makeRoster, makeRosterViewer } from '../testing';
import { RosterPage, type RenderRosterInvites } from './roster-page';

// Whole-screen typing and clicking can pass the 5 s default on a busy box.
const TIMEOUT_MS = 20_000;

const page = { items: [], nextCursor: null };

function setup(routes: Parameters<typeof mockApi>[0], renderInvites?: RenderRosterInvites) {
  const server = mockApi({ 'GET /me/positions': [], ...routes });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <RosterPage renderInvites={renderInvites} renderTeamChat={(rosterId) => <p data-testid="team-chat">Team chat of {rosterId}</p>} />
    </LiveSocketContext.Provider>,
    { store, route: '/rosters/r-1', path: '/rosters/:id' },
  );
  const push = (doc: RosterDocument) => act(() => store.set(topicAtomFamily('roster:r-1'), { seq: doc.seq, data: doc }));
  return { server, live, store, push, user: userEvent.setup() };
}

const strip = ({ viewer: _viewer, ...doc }: Roster): RosterDocument => doc;

describe('RosterPage', { timeout: TIMEOUT_MS }, () => {
  it('asks to join, shows the request pending, and turns to “on the roster” when the approval is pushed', async () => {
    const bob = makePlayer({ userId: 'u-bob', jerseyNumber: 9, position: 'CENTER', captain: true, goals: 4, assists: 2, points: 6 });
    let roster = makeRoster({ players: [bob], memberCount: 1, seq: 100 });
    const { server, live, push, user } = setup({
      'GET /rosters/r-1': () => roster,
      'POST /rosters/r-1/join-requests': (c) => {
        roster = { ...roster, seq: 101, requests: [{ id: 'q-1', userId: 'u-me', status: 'PENDING', updatedAt: '2026-11-02T00:00:00Z' }] };
        return reply(201, makeJoinRequest({ id: 'q-1', userId: 'u-me', ...(c.body as object) }));
      },
      'GET /join-requests/q-1': makeJoinRequest({ id: 'q-1', userId: 'u-me', message: 'Free Tuesdays', preferredPosition: 'LEFT_DEFENSE', commitmentLevel: 'SUBSTITUTE' }),
    });

    expect(await screen.findByRole('heading', { name: 'Frozen Assets' })).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith('roster:r-1');
    const row = screen.getByTestId('player-bob');
    expect(within(row).getByTestId('player-number')).toHaveTextContent('9');
    expect(within(row).getByTestId('player-letter')).toHaveTextContent('C');
    expect(row).toHaveTextContent('6');

    await user.click(screen.getByTestId('ask-to-join'));
    await user.selectOptions(screen.getByTestId('join-position'), 'LEFT_DEFENSE');
    await user.selectOptions(screen.getByTestId('join-commitment'), 'SUBSTITUTE');
    await user.type(screen.getByTestId('join-message'), 'Free Tuesdays');
    await user.click(screen.getByTestId('send-join-request'));

    await waitFor(() => expect(server.callsTo('POST', '/rosters/r-1/join-requests')).toHaveLength(1));
    expect(server.callsTo('POST', '/rosters/r-1/join-requests')[0]?.body).toEqual({ commitmentLevel: 'SUBSTITUTE', preferredPosition: 'LEFT_DEFENSE', message: 'Free Tuesdays' });
    expect(await screen.findByText('Request pending')).toBeInTheDocument();
    expect(await screen.findByText('Free Tuesdays')).toBeInTheDocument();
    expect(screen.queryByTestId('send-join-request')).not.toBeInTheDocument();

    // A decider approves elsewhere: the push puts me on the roster.
    push({
      ...strip(roster),
      seq: 102,
      memberCount: 2,
      players: [bob, makePlayer({ userId: 'u-me', position: 'LEFT_DEFENSE', commitmentLevel: 'SUBSTITUTE' })],
      requests: [{ id: 'q-1', userId: 'u-me', status: 'APPROVED', updatedAt: '2026-11-02T00:01:00Z' }],
    });
    expect(screen.getByTestId('join-status')).toHaveTextContent('Approved — you’re on the roster');
    expect(screen.getByTestId('player-me')).toHaveTextContent('LD');
    expect(screen.getByTestId('roster-members')).toHaveTextContent('2');
  });

  it('shows a decline, and lets me ask again', async () => {
    const { user } = setup({
      'GET /rosters/r-1': makeRoster({ requests: [{ id: 'q-1', userId: 'u-me', status: 'REJECTED', updatedAt: '2026-11-02T00:00:00Z' }] }),
    });
    expect(await screen.findByText('Your request was declined')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ask again' }));
    expect(screen.getByTestId('join-form')).toBeInTheDocument();
  });

  it('cancels my pending request after a confirming second tap', async () => {
    const { server, user } = setup({
      'GET /rosters/r-1': makeRoster({ requests: [{ id: 'q-1', userId: 'u-me', status: 'PENDING', updatedAt: '2026-11-02T00:00:00Z' }] }),
      'GET /join-requests/q-1': makeJoinRequest({ id: 'q-1', userId: 'u-me' }),
      'DELETE /join-requests/q-1': () => undefined,
    });
    const cancel = await screen.findByTestId('cancel-join-request');
    await user.click(cancel);
    expect(server.callsTo('DELETE', '/join-requests/q-1')).toHaveLength(0);
    await user.click(cancel);
    await waitFor(() => expect(server.callsTo('DELETE', '/join-requests/q-1')).toHaveLength(1));
  });

  it('lets a player leave the roster', async () => {
    const { server, user } = setup({
      'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-me', jerseyNumber: 12 })], viewer: makeRosterViewer({ isMember: true }) }),
      'DELETE /rosters/r-1/players/u-me': () => undefined,
    });
    expect(await screen.findByText('You’re on the roster')).toBeInTheDocument();
    await user.click(screen.getByTestId('leave-roster'));
    await user.click(screen.getByTestId('leave-roster'));
    await waitFor(() => expect(server.callsTo('DELETE', '/rosters/r-1/players/u-me')).toHaveLength(1));
  });

  it('shows deciders new requests as they arrive and explains a full roster on approve', async () => {
    const viewer = makeRosterViewer({ canDecideRequests: true, canManagePlayers: true, canEdit: true });
    const rest = makeRoster({ viewer, maxMembers: 1, players: [makePlayer({ userId: 'u-bob' })], memberCount: 1 });
    const { server, push, user } = setup({
      'GET /rosters/r-1': rest,
      'GET /rosters/r-1/join-requests': { items: [makeJoinRequest({ id: 'q-7', userId: 'u-ada', user: { id: 'u-ada', username: 'ada', firstName: 'Ada', lastName: 'Aho', profileImage: null }, message: 'Can play D', preferredPosition: 'LEFT_DEFENSE' })], nextCursor: null },
      'POST /join-requests/q-7/approve': apiError(409, 'roster_full', 'the roster is full (1 players)'),
    });
    expect(await screen.findByText('No one is waiting.')).toBeInTheDocument();
    expect(server.callsTo('GET', '/rosters/r-1/join-requests')).toHaveLength(0);

    push({ ...strip(rest), seq: 101, requests: [{ id: 'q-7', userId: 'u-ada', status: 'PENDING', updatedAt: '2026-11-02T00:00:00Z' }] });
    const request = await screen.findByTestId('request-ada');
    expect(request).toHaveTextContent('Can play D');
    expect(request).toHaveTextContent('Left defense · Full-time');
    expect(server.callsTo('GET', '/rosters/r-1/join-requests')[0]?.query.get('status')).toBe('PENDING');
    expect(screen.getByTestId('pending-count')).toHaveTextContent('1');

    await user.click(within(request).getByTestId('approve-request'));
    expect(await within(request).findByRole('alert')).toHaveTextContent('the roster is full (1 players). Raise the limit or take someone off first.');
  });

  it('approves a request', async () => {
    const viewer = makeRosterViewer({ canDecideRequests: true });
    const { server, user } = setup({
      'GET /rosters/r-1': makeRoster({ viewer, requests: [{ id: 'q-7', userId: 'u-ada', status: 'PENDING', updatedAt: '2026-11-02T00:00:00Z' }] }),
      'GET /rosters/r-1/join-requests': { items: [makeJoinRequest({ id: 'q-7', userId: 'u-ada' })], nextCursor: null },
      'POST /join-requests/q-7/approve': makeJoinRequest({ id: 'q-7', userId: 'u-ada', status: 'APPROVED' }),
    });
    await user.click(await screen.findByTestId('approve-request'));
    await waitFor(() => expect(server.callsTo('POST', '/join-requests/q-7/approve')).toHaveLength(1));
  });

  it('puts a taken number and a second captain beside the fields they are about', async () => {
    const viewer = makeRosterViewer({ canManagePlayers: true });
    const players = [makePlayer({ userId: 'u-bob', jerseyNumber: 9, captain: true }), makePlayer({ userId: 'u-cy', jerseyNumber: 12 })];
    let answer = apiError(409, 'jersey_taken', '#9 is already worn on this roster');
    const { server, user } = setup({
      'GET /rosters/r-1': makeRoster({ viewer, players }),
      'PATCH /rosters/r-1/players/u-cy': () => answer,
    });
    await user.click(await screen.findByTestId('edit-player-cy'));
    const jersey = screen.getByTestId('player-jersey');
    await user.clear(jersey);
    await user.type(jersey, '9');
    await user.click(screen.getByTestId('save-player'));
    expect(await screen.findByText('#9 is already worn on this roster')).toBeInTheDocument();
    expect(jersey).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('PATCH', '/rosters/r-1/players/u-cy')[0]?.body).toEqual({ jerseyNumber: 9 });

    answer = apiError(409, 'captain_taken', 'the roster already has a captain');
    await user.clear(jersey);
    await user.type(jersey, '12');
    await user.selectOptions(screen.getByTestId('player-letter-select'), 'C');
    await user.click(screen.getByTestId('save-player'));
    expect(await screen.findByText('the roster already has a captain')).toBeInTheDocument();
    expect(screen.getByTestId('player-letter-select')).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('PATCH', '/rosters/r-1/players/u-cy')[1]?.body).toEqual({ captain: true });
  });

  it('refuses a bad number before asking the server', async () => {
    const { server, user } = setup({
      'GET /rosters/r-1': makeRoster({ viewer: makeRosterViewer({ canManagePlayers: true }), players: [makePlayer({ userId: 'u-cy' })] }),
    });
    await user.click(await screen.findByTestId('edit-player-cy'));
    await user.type(screen.getByTestId('player-jersey'), '123');
    await user.click(screen.getByTestId('save-player'));
    expect(await screen.findByText('A number from 0 to 99.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });

  it('adds a player picked from people search', async () => {
    const { server, user } = setup({
      'GET /rosters/r-1': makeRoster({ viewer: makeRosterViewer({ canManagePlayers: true }) }),
      'GET /users': { ...page, items: [{ id: 'u-ada', username: 'ada', firstName: 'Ada', lastName: 'Aho', profileImage: null, bio: null, profileTypes: ['PLAYER'], createdAt: '', followerCount: 0, followingCount: 0, isFollowing: false }] },
      'POST /rosters/r-1/players': (c) => reply(201, makePlayer({ userId: 'u-ada', ...(c.body as object) })),
    });
    await user.click(await screen.findByTestId('add-player'));
    await user.click(screen.getByTestId('player-picker'));
    await user.click(await screen.findByRole('option', { name: /Ada Aho/ }));
    await user.type(screen.getByTestId('player-jersey'), '7');
    await user.selectOptions(screen.getByTestId('player-position'), 'RIGHT_WING');
    await user.selectOptions(screen.getByTestId('player-letter-select'), 'A');
    await user.click(screen.getByTestId('save-player'));
    await waitFor(() => expect(server.callsTo('POST', '/rosters/r-1/players')).toHaveLength(1));
    expect(server.callsTo('POST', '/rosters/r-1/players')[0]?.body).toEqual({ userId: 'u-ada', commitmentLevel: 'FULL_TIME', jerseyNumber: 7, position: 'RIGHT_WING', alternateCaptain: true });
    expect(await screen.findByText('Ada Aho is on the roster.')).toBeInTheDocument();
  });

  it('moves a draft roster to active', async () => {
    let roster = makeRoster({ status: 'DRAFT', viewer: makeRosterViewer({ canEdit: true }) });
    const { server, user } = setup({
      'GET /rosters/r-1': () => roster,
      'PATCH /rosters/r-1': (c) => (roster = { ...roster, seq: 101, ...(c.body as object) }),
    });
    await user.click(await screen.findByTestId('activate-roster'));
    await waitFor(() => expect(server.callsTo('PATCH', '/rosters/r-1')[0]?.body).toEqual({ status: 'ACTIVE' }));
    await waitFor(() => expect(screen.getByTestId('roster-status-chip')).toHaveTextContent('Active'));
    expect(screen.queryByTestId('activate-roster')).not.toBeInTheDocument();
  });

  it('gives those who decide requests the invite card, with the live seq so uses follow joins', async () => {
    const viewer = makeRosterViewer({ canDecideRequests: true });
    const rest = makeRoster({ name: 'Owls', viewer, seq: 100 });
    const renderInvites = vi.fn<RenderRosterInvites>(() => <p>invite card</p>);
    const { push } = setup({ 'GET /rosters/r-1': rest, 'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }) }, renderInvites);
    expect(await screen.findByText('invite card')).toBeInTheDocument();
    expect(renderInvites).toHaveBeenLastCalledWith({ rosterId: 'r-1', name: 'Owls', version: 100 });
    // Someone joined through a link: the pushed roster moves the version.
    push({ ...strip(rest), seq: 101, memberCount: 1, players: [makePlayer({ userId: 'u-new' })] });
    expect(renderInvites).toHaveBeenLastCalledWith({ rosterId: 'r-1', name: 'Owls', version: 101 });
  });

  it('gives a player no invite card', async () => {
    const renderInvites = vi.fn<RenderRosterInvites>(() => <p>invite card</p>);
    setup({ 'GET /rosters/r-1': makeRoster({ viewer: makeRosterViewer({ isMember: true, canManagePlayers: false }) }), 'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }) }, renderInvites);
    expect(await screen.findByTestId('roster-page')).toBeInTheDocument();
    expect(renderInvites).not.toHaveBeenCalled();
  });

  it('gives no invite card on an archived roster', async () => {
    const renderInvites = vi.fn<RenderRosterInvites>(() => <p>invite card</p>);
    setup({ 'GET /rosters/r-1': makeRoster({ status: 'ARCHIVED', viewer: makeRosterViewer({ canDecideRequests: true, canManagePlayers: true, canEdit: true }) }) }, renderInvites);
    expect(await screen.findByTestId('archived-banner')).toBeInTheDocument();
    expect(renderInvites).not.toHaveBeenCalled();
  });

  it('is read-only once archived', async () => {
    const viewer = makeRosterViewer({ canEdit: true, canManagePlayers: true, canDecideRequests: true });
    setup({ 'GET /rosters/r-1': makeRoster({ status: 'ARCHIVED', viewer, players: [makePlayer({ userId: 'u-bob' })] }) });
    expect(await screen.findByTestId('archived-banner')).toHaveTextContent('This roster is archived');
    expect(screen.queryByTestId('add-player')).not.toBeInTheDocument();
    expect(screen.queryByTestId('edit-player-bob')).not.toBeInTheDocument();
    expect(screen.queryByTestId('requests-queue')).not.toBeInTheDocument();
    expect(screen.queryByTestId('archive-roster')).not.toBeInTheDocument();
    expect(screen.queryByTestId('edit-roster')).not.toBeInTheDocument();
    expect(screen.queryByTestId('ask-to-join')).not.toBeInTheDocument();
  });

  it('sorts by points with the leader first', async () => {
    const { user } = setup({
      'GET /rosters/r-1': makeRoster({
        players: [makePlayer({ userId: 'u-a', jerseyNumber: 1, points: 2 }), makePlayer({ userId: 'u-b', jerseyNumber: 2, points: 7 })],
      }),
    });
    await screen.findByTestId('players-table');
    const names = () => screen.getAllByRole('row').slice(1).map((r) => r.getAttribute('data-testid'));
    expect(names()).toEqual(['player-a', 'player-b']);
    await user.click(screen.getByRole('button', { name: 'PTS' }));
    expect(names()).toEqual(['player-b', 'player-a']);
    expect(screen.getByRole('columnheader', { name: 'PTS' })).toHaveAttribute('aria-sort', 'descending');
  });

  it('links to the team’s schedule and the season’s standings', async () => {
    setup({ 'GET /rosters/r-1': makeRoster() });
    expect(await screen.findByTestId('roster-schedule-link')).toHaveAttribute('href', '/teams/t-1/schedule');
    expect(screen.getByTestId('roster-standings-link')).toHaveAttribute('href', '/seasons/s-1/games');
  });

  it("shows the roster's players the availability board, the staff the rules too, and nobody else either", async () => {
    const board = makeAvailabilityBoard({ games: [makeGameAvailability({ startsAt: new Date(Date.now() + 48 * 3_600_000).toISOString(), players: [makeAvailabilityPlayer({ userId: 'u-me' })] })] });
    const member = setup({
      'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-me' })], viewer: makeRosterViewer({ isMember: true }) }),
      'GET /rosters/r-1/availability': board,
    });
    expect(await screen.findByTestId('avail-game-g-1')).toHaveTextContent('Skaters 0 in · 0 out · 1 no answer');
    expect(member.live.subscribe).toHaveBeenCalledWith('availability:r-1');
    expect(screen.queryByTestId('availability-rules')).not.toBeInTheDocument();
    expect(member.server.callsTo('GET', '/rosters/r-1/availability-rules')).toHaveLength(0);
  });

  it('gives the staff the board and its rules, even when they do not play', async () => {
    setup({
      'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-bob' })], viewer: makeRosterViewer({ canManagePlayers: true, canEdit: true, canDecideRequests: true }) }),
      'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }),
      'GET /rosters/r-1/availability-rules': { lockMinutes: 120, minSkaters: 10, minGoalies: 1 },
      'GET /rosters/r-1/join-requests': page,
    });
    // The card's frame shows before its board is read: wait for the board's words, not the frame.
    await waitFor(() => expect(screen.getByTestId('availability-card')).toHaveTextContent('No games in the next 60 days.'));
    expect(await screen.findByTestId('avail-rules-lockHours')).toHaveValue('2');
  });

  it('offers the team chat to the roster’s players', async () => {
    setup({ 'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-me' })], viewer: makeRosterViewer({ isMember: true }) }), 'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }) });
    expect(await screen.findByTestId('team-chat')).toHaveTextContent('Team chat of r-1');
  });

  it('offers the team chat to the team’s staff who do not play', async () => {
    setup({
      'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-bob' })], viewer: makeRosterViewer({ canManagePlayers: true }) }),
      'GET /rosters/r-1/availability': makeAvailabilityBoard({ games: [] }),
      'GET /rosters/r-1/availability-rules': { lockMinutes: null, minSkaters: null, minGoalies: null },
    });
    expect(await screen.findByTestId('team-chat')).toBeInTheDocument();
  });

  it('offers no team chat to someone not on the roster', async () => {
    setup({ 'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-bob' })] }) });
    expect(await screen.findByRole('heading', { name: 'Frozen Assets' })).toBeInTheDocument();
    expect(screen.queryByTestId('team-chat')).not.toBeInTheDocument();
  });

  it('shows no board to someone not on the roster', async () => {
    const { server } = setup({ 'GET /rosters/r-1': makeRoster({ players: [makePlayer({ userId: 'u-bob' })] }) });
    expect(await screen.findByRole('heading', { name: 'Frozen Assets' })).toBeInTheDocument();
    expect(screen.queryByTestId('availability-card')).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/rosters/r-1/availability')).toHaveLength(0);
  });
});
