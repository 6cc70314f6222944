import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import type { RinkEvent } from '../../../lib/api-types';
import { makeEvent, makeFacility, makePublicUser, makeTeam, makeViewer } from '../../../testing/fixtures';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { AttendeesDoc, AttendingEntry } from '../model/types';
import { EventPage, type RenderChat, type RenderEventInvites, type RenderSubsCall } from './event-page';

// These tests type and click through whole screens; under a busy CI box that
// can pass the 5 s default without anything being wrong.
const TYPING_TIMEOUT_MS = 20_000;

const att = (userId: string, position: AttendingEntry['position'], isPaid: boolean | null = null): AttendingEntry => ({
  userId,
  displayName: `Player ${userId}`,
  position,
  respondedAt: '2026-11-01T00:00:00Z',
  isPaid,
});

const groups = { balanceBy: 'POSITION' as const, groups: [{ name: 'Dark', color: '#1b2a4a' }, { name: 'Light', color: '#f2f5fa' }] };

function fullDoc(version: number, over: Partial<AttendeesDoc> = {}): AttendeesDoc {
  return {
    version,
    attending: [att('u-a', 'CENTER'), att('u-g', 'GOALIE'), att('u-d', 'LEFT_DEFENSE')],
    waitlist: [
      { userId: 'u-me', displayName: 'Me Myself', position: 'CENTER', rank: 1, addedAt: '2026-11-01T00:00:00Z', regular: false },
      { userId: 'u-w2', displayName: 'Player u-w2', position: 'LEFT_WING', rank: 2, addedAt: '2026-11-01T00:00:00Z', regular: false },
    ],
    counts: { skaters: 2, goalies: 1, maxSkaters: 2, maxGoalies: 1, waitlistSkaters: 2, waitlistGoalies: 0 },
    ...over,
  };
}

function setup(event: RinkEvent, doc: AttendeesDoc, extra: Parameters<typeof mockApi>[0] = {}, renderSubsCall?: RenderSubsCall, renderInvites?: RenderEventInvites, renderChat?: RenderChat) {
  const server = mockApi({
    'GET /events/e-1': event,
    'GET /events/e-1/attendees': doc,
    'GET /me/positions': [],
    'GET /me/teams': { items: [], nextCursor: null },
    ...extra,
  });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <EventPage renderSubsCall={renderSubsCall} renderInvites={renderInvites} renderChat={renderChat} />
    </LiveSocketContext.Provider>,
    { store, route: '/events/e-1', path: '/events/:id' },
  );
  return { server, live, store, user: userEvent.setup() };
}

/** The page for a viewer on no list (nobody in or waiting but others). */
function setupView(event: RinkEvent, renderChat: RenderChat) {
  mockApi({
    'GET /events/e-1': event,
    'GET /events/e-1/attendees': fullDoc(1, { waitlist: [] }),
    'GET /me/positions': [],
    'GET /me/teams': { items: [], nextCursor: null },
  });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  return renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <EventPage renderChat={renderChat} />
    </LiveSocketContext.Provider>,
    { store, route: '/events/e-1', path: '/events/:id' },
  );
}

describe('EventPage', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('shows live counts, groups and ranked waitlist, and promotes me live without a reload', async () => {
    const event = makeEvent({ version: 2, groupConfig: groups, maxSkaters: 2, maxGoalies: 1, viewer: makeViewer({ status: 'WAITLISTED', waitlistRank: 1, position: 'CENTER' }) });
    const { live, store } = setup(event, fullDoc(2));

    expect(await screen.findByRole('heading', { name: 'Noon skate' })).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith('event:e-1');
    await waitFor(() => expect(screen.getByTestId('event-counts')).toHaveTextContent('2/2 skaters · 1/1 goalie · 2 waiting'));
    expect(screen.getByTestId('rsvp-status')).toHaveTextContent('Waitlisted #1');

    // POSITION balance: goalie to Dark, defence to Light, forward back to Dark.
    expect(within(screen.getByTestId('group-0')).getByText('Dark')).toBeInTheDocument();
    expect(within(screen.getByTestId('group-0')).getByText('Player u-g')).toBeInTheDocument();
    expect(within(screen.getByTestId('group-0')).getByText('Player u-a')).toBeInTheDocument();
    expect(within(screen.getByTestId('group-1')).getByText('Player u-d')).toBeInTheDocument();

    const waitlist = screen.getByTestId('waitlist');
    expect(within(waitlist).getByTestId('waiting-u-me')).toHaveTextContent('#1');
    expect(within(waitlist).getByTestId('waiting-u-w2')).toHaveTextContent('#2');

    // Someone declines; the server promotes me and pushes the new document.
    act(() =>
      store.set(topicAtomFamily('event:e-1'), {
        seq: 3,
        data: fullDoc(3, {
          attending: [att('u-g', 'GOALIE'), att('u-d', 'LEFT_DEFENSE'), att('u-me', 'CENTER')],
          waitlist: [{ userId: 'u-w2', displayName: 'Player u-w2', position: 'LEFT_WING', rank: 1, addedAt: '', regular: false }],
          counts: { skaters: 2, goalies: 1, maxSkaters: 2, maxGoalies: 1, waitlistSkaters: 1, waitlistGoalies: 0 },
        }),
      }),
    );
    expect(screen.getByTestId('rsvp-status')).toHaveTextContent("You're in");
    expect(screen.getByTestId('event-counts')).toHaveTextContent('2/2 skaters · 1/1 goalie · 1 waiting');
    expect(screen.getByTestId('attendee-u-me')).toHaveTextContent('You');
    expect(within(screen.getByTestId('waitlist')).getByTestId('waiting-u-w2')).toHaveTextContent('#1');
  });

  it('re-reads the event after a push, and shows the cancelled banner', async () => {
    let cancelled = false;
    const { server, store } = setup(makeEvent({ version: 2 }), fullDoc(2), {
      'GET /events/e-1': () => makeEvent({ version: cancelled ? 3 : 2, cancelledAt: cancelled ? '2026-11-20T10:00:00Z' : null }),
    });
    await screen.findByTestId('rsvp-panel');
    expect(screen.queryByText('This event is cancelled')).not.toBeInTheDocument();
    cancelled = true;
    act(() => store.set(topicAtomFamily('event:e-1'), { seq: 3, data: { ...fullDoc(3), cancelled: true } }));
    expect(await screen.findByText('This event is cancelled')).toBeInTheDocument();
    await waitFor(() => expect(server.callsTo('GET', '/events/e-1').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByTestId('rsvp-in')).not.toBeInTheDocument();
  });

  it('re-reads the event when my feed says it was updated: a league game moved to another sheet shows without a reload', async () => {
    let rink = 'Rink A';
    const game = () => makeEvent({ eventType: 'EXTERNAL_GAME', title: 'Blue Liners vs Top Shelf', externalRink: rink, externalHomeTeamName: 'Blue Liners', externalAwayTeamName: 'Top Shelf' });
    const { server, live } = setup(game(), fullDoc(1), { 'GET /events/e-1': () => game() });
    expect(await screen.findByText('Rink A')).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith('feed');
    const reads = () => server.callsTo('GET', '/events/e-1').length;
    const before = reads();

    rink = 'Rink B';
    // Another event's change, or another kind of item about this one, is not a reason to read it again.
    act(() => live.emitUpdate('feed', { id: 'i1', type: 'EVENT_UPDATED', resourceType: 'EVENT', resourceId: 'e-2' }));
    act(() => live.emitUpdate('feed', { id: 'i2', type: 'EVENT_CREATED', resourceType: 'EVENT', resourceId: 'e-1' }));
    expect(reads()).toBe(before);

    act(() => live.emitUpdate('feed', { id: 'i3', type: 'EVENT_UPDATED', resourceType: 'EVENT', resourceId: 'e-1', aggregatedData: { actorIds: [], count: 1, changes: ['PLACE'] } }));
    expect(await screen.findByText('Rink B')).toBeInTheDocument();
    expect(reads()).toBe(before + 1);
  });

  it('lets an organiser remove people over the socket and mark payments', async () => {
    const event = makeEvent({ version: 2, viewer: makeViewer({ isOrganiser: true, canCollectPayments: true }) });
    const doc = fullDoc(2, { attending: [att('u-a', 'CENTER', true), att('u-g', 'GOALIE', false)] });
    const { server, live, user } = setup(event, doc, {
      'GET /events/e-1/payments': [],
      'PUT /events/e-1/payments/:userId': (call, p) => ({ id: 'pay', eventId: 'e-1', userId: p.userId, isPaid: (call.body as { isPaid: boolean }).isPaid, markedPaidAt: null, markedPaidById: 'u-me', createdAt: '', updatedAt: '' }),
    });
    expect(await screen.findByTestId('organiser-tools')).toBeInTheDocument();

    const remove = await screen.findByTestId('remove-u-w2');
    await user.click(remove);
    expect(remove).toHaveTextContent('Remove?');
    expect(live.command).not.toHaveBeenCalled();
    await user.click(remove);
    expect(live.last().command).toEqual({ kind: 'removeAttendee', eventId: 'e-1', userId: 'u-w2' });
    await act(async () => live.last().resolve({ status: 'REMOVED', waitlistRank: null, version: 3 }));

    expect(screen.getByTestId('paid-u-a')).toHaveTextContent('Paid');
    await user.click(screen.getByTestId('paid-u-g'));
    await waitFor(() => expect(server.callsTo('PUT', '/events/e-1/payments/u-g')[0]?.body).toEqual({ isPaid: true }));
    await waitFor(() => expect(screen.getByTestId('paid-u-g')).toHaveAttribute('aria-pressed', 'true'));
  });

  it('lets an organiser raise a limit', async () => {
    const event = makeEvent({ version: 2, maxSkaters: 2, maxGoalies: 1, viewer: makeViewer({ isOrganiser: true }) });
    const { server, user } = setup(event, fullDoc(2), {
      'PATCH /events/e-1': (call) => ({ ...event, ...(call.body as object) }),
    });
    const input = await screen.findByTestId('limit-skaters');
    await user.clear(input);
    await user.type(input, '4');
    await user.click(screen.getByTestId('save-limits'));
    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')[0]?.body).toEqual({ maxSkaters: 4 }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(screen.getByText(/turn on/)).toBeInTheDocument();
  });

  it('asks which weeks a series event\'s new limit is for', async () => {
    // "This and all following" re-reads every event: the server answers what it now holds.
    let event = makeEvent({ version: 2, maxSkaters: 2, maxGoalies: 1, seriesId: 's-1', viewer: makeViewer({ isOrganiser: true }) });
    const { server, user } = setup(event, fullDoc(2), {
      'GET /events/e-1': () => event,
      'GET /event-series/s-1': { id: 's-1', frequency: 'WEEKLY', until: '2030-12-29', timeZone: 'UTC', creatorId: 'u-org', createdAt: '2030-11-01T00:00:00Z', events: [] },
      'PATCH /events/e-1': (call) => (event = { ...event, ...(call.body as object) }),
    });
    const input = await screen.findByTestId('limit-skaters');
    await user.clear(input);
    await user.type(input, '4');
    await user.click(screen.getByTestId('save-limits'));
    expect(screen.getByTestId('scope-this')).toHaveFocus();
    expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(0);
    await user.click(screen.getByTestId('scope-following'));
    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/events/e-1')[0]?.query.get('scope')).toBe('following');
    expect(server.callsTo('PATCH', '/events/e-1')[0]?.body).toEqual({ maxSkaters: 4 });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('asks before lowering a limit below the people already in, and says what it means', async () => {
    const event = makeEvent({ version: 2, maxSkaters: 2, maxGoalies: 1, viewer: makeViewer({ isOrganiser: true }) });
    const { server, user } = setup(event, fullDoc(2), {
      'PATCH /events/e-1': (call) => ({ ...event, ...(call.body as object) }),
    });
    const input = await screen.findByTestId('limit-skaters');
    await user.clear(input);
    await user.type(input, '1');
    await user.click(screen.getByTestId('save-limits'));
    const confirm = screen.getByTestId('limit-confirm');
    expect(confirm).toHaveTextContent('2 in, 1 skater place: nobody is removed; nobody new gets in until 2 leave.');
    expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(0);
    await user.click(screen.getByTestId('limit-confirm-no'));
    expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(0);
    await user.click(screen.getByTestId('save-limits'));
    await user.click(screen.getByTestId('limit-confirm-yes'));
    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')[0]?.body).toEqual({ maxSkaters: 1 }));
  });

  it('explains a list over its limit instead of showing "2/1 skaters" without a word', async () => {
    const event = makeEvent({ version: 2, maxSkaters: 1, maxGoalies: 1 });
    setup(event, fullDoc(2, { counts: { skaters: 2, goalies: 1, maxSkaters: 1, maxGoalies: 1, waitlistSkaters: 0, waitlistGoalies: 0 } }));
    expect(await screen.findByTestId('over-limit')).toHaveTextContent('2 in, 1 skater place: nobody is removed; nobody new gets in until 2 leave.');
  });

  it('says plainly that a stranger\'s event at a rink is a community event, and who organises it', async () => {
    const event = makeEvent({ facilityId: 'f-1', hostedByFacility: false, creatorId: 'u-bob', location: 'Rink B' });
    setup(event, fullDoc(1), {
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'GET /users/u-bob': makePublicUser(),
    });
    expect(await screen.findByTestId('community-chip')).toHaveTextContent('Community event');
    await waitFor(() => expect(screen.getByTestId('community-note')).toHaveTextContent('Organised by Bob Burns · not run by Maple Arena'));
    expect(within(screen.getByTestId('community-note')).getByRole('link', { name: 'Bob Burns' })).toHaveAttribute('href', '/users/u-bob');
    expect(screen.getByRole('link', { name: 'Maple Arena' })).toHaveAttribute('href', '/facilities/f-1');
    // Not the rink's staff: no listing control.
    expect(screen.queryByTestId('rink-listing')).not.toBeInTheDocument();
  });

  it('shows no community label on an event the rink lists, nor on one at no rink', async () => {
    setup(makeEvent({ facilityId: 'f-1', hostedByFacility: true }), fullDoc(1), { 'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }) });
    expect(await screen.findByRole('link', { name: 'Maple Arena' })).toBeInTheDocument();
    expect(screen.queryByTestId('community-chip')).not.toBeInTheDocument();
    expect(screen.queryByTestId('community-note')).not.toBeInTheDocument();
  });

  it('says "organised by you" to the organiser of a community event', async () => {
    setup(makeEvent({ facilityId: 'f-1', creatorId: 'u-me', viewer: makeViewer({ isOrganiser: true }) }), fullDoc(1), { 'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }) });
    await waitFor(() => expect(screen.getByTestId('community-note')).toHaveTextContent('Organised by you · not run by Maple Arena'));
  });

  it('lets the rink\'s staff list a community event under the rink\'s name and take it off again', async () => {
    const event = makeEvent({ facilityId: 'f-1', hostedByFacility: false, creatorId: 'u-bob', viewer: makeViewer({ canHost: true }) });
    const { server, user } = setup(event, fullDoc(1), {
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'GET /users/u-bob': makePublicUser(),
      'PUT /events/e-1/hosting': { ...event, hostedByFacility: true },
      'DELETE /events/e-1/hosting': { ...event, hostedByFacility: false },
    });
    const card = await screen.findByTestId('rink-listing');
    expect(within(card).getByTestId('listing-status')).toHaveTextContent('Community event');

    await user.click(await within(card).findByRole('button', { name: 'List at Maple Arena' }));
    await waitFor(() => expect(within(card).getByTestId('listing-status')).toHaveTextContent('Listed at Maple Arena'));
    expect(server.callsTo('PUT', '/events/e-1/hosting')).toHaveLength(1);
    // The page reads from the updated cache: the community label is gone.
    expect(screen.queryByTestId('community-chip')).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: "Remove Maple Arena's name" }));
    await waitFor(() => expect(within(card).getByTestId('listing-status')).toHaveTextContent('Community event'));
    expect(server.callsTo('DELETE', '/events/e-1/hosting')).toHaveLength(1);
    expect(screen.getByTestId('community-chip')).toBeInTheDocument();
  });

  it('offers no way to take the rink\'s name off a season\'s event', async () => {
    const event = makeEvent({ facilityId: 'f-1', seasonId: 's-1', hostedByFacility: true, viewer: makeViewer({ canHost: true }) });
    setup(event, fullDoc(1), {
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'GET /seasons/s-1': { id: 's-1', facilityId: 'f-1', facilityName: 'Maple Arena', name: 'Winter 2030', startDate: '', endDate: '', isActive: true },
    });
    const card = await screen.findByTestId('rink-listing');
    await waitFor(() => expect(within(card).getByText(/Part of a season's schedule/)).toBeInTheDocument());
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows why listing failed', async () => {
    const event = makeEvent({ facilityId: 'f-1', viewer: makeViewer({ canHost: true }) });
    const { user } = setup(event, fullDoc(1), {
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'PUT /events/e-1/hosting': apiError(403, 'forbidden', "Only the rink's owner and managers may do that."),
    });
    await user.click(await screen.findByTestId('host-event'));
    expect(await screen.findByRole('alert')).toHaveTextContent("Only the rink's owner and managers may do that.");
    expect(screen.getByTestId('listing-status')).toHaveTextContent('Community event');
  });

  it('offers only the teams I run to link, filtered as I type', async () => {
    const event = makeEvent({ eventType: 'GAME', viewer: makeViewer({ isOrganiser: true }) });
    const { server, user } = setup(event, fullDoc(1), {
      'GET /me/teams': { items: [makeTeam({ id: 't-1', name: 'Blue Liners' }), makeTeam({ id: 't-2', name: 'Ice Hawks' }), makeTeam({ id: 't-3', name: 'Frozen Assets' })], nextCursor: null },
      'PUT /events/e-1/teams/:teamId': (call, p) => ({ ...event, teams: [{ teamId: p.teamId, teamName: 'Ice Hawks', role: (call.body as { role: 'HOME' }).role }] }),
    });
    const picker = await screen.findByTestId('link-team');
    await user.click(picker);
    const names = () => within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    await waitFor(() => expect(names()).toEqual(['Blue Liners', 'Ice Hawks', 'Frozen Assets']));
    await user.type(picker, 'HAW');
    expect(names()).toEqual(['Ice Hawks']);
    await user.click(screen.getByRole('option', { name: 'Ice Hawks' }));
    await user.click(screen.getByTestId('link-team-submit'));
    await waitFor(() => expect(server.callsTo('PUT', '/events/e-1/teams/t-2')[0]?.body).toEqual({ role: 'HOME' }));
    expect(await screen.findByRole('button', { name: 'Unlink Ice Hawks' })).toBeInTheDocument();
    // Nobody else's teams were searched.
    expect(server.callsTo('GET', '/teams')).toHaveLength(0);

    await user.click(picker);
    await user.type(picker, 'zamboni');
    expect(screen.getByText('None of your teams matches')).toBeInTheDocument();
  });

  it('explains instead of a picker when I run no team, and still lets me unlink', async () => {
    const event = makeEvent({ eventType: 'GAME', teams: [{ teamId: 't-9', teamName: 'Visitors', role: 'AWAY' }], viewer: makeViewer({ isOrganiser: true }) });
    const { server, user } = setup(event, fullDoc(1), { 'DELETE /events/e-1/teams/t-9': () => undefined });
    expect(await screen.findByTestId('no-teams-to-link')).toHaveTextContent('You can link teams you own or manage');
    expect(screen.queryByTestId('link-team')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Unlink Visitors' }));
    await waitFor(() => expect(server.callsTo('DELETE', '/events/e-1/teams/t-9')).toHaveLength(1));
  });

  it('offers the event’s chat to those in or waitlisted and to its organisers, and to nobody else', async () => {
    const chat: RenderChat = (eventId) => <p data-testid="event-chat">Chat of {eventId}</p>;
    // On the waitlist (the live list says so).
    const waiting = setup(makeEvent({ viewer: makeViewer({ status: 'WAITLISTED', waitlistRank: 1 }) }), fullDoc(1), {}, undefined, undefined, chat);
    expect(await screen.findByTestId('event-chat')).toHaveTextContent('Chat of e-1');
    act(() => waiting.store.set(topicAtomFamily('event:e-1'), { seq: 2, data: fullDoc(2, { waitlist: [] }) }));
    await waitFor(() => expect(screen.queryByTestId('event-chat')).not.toBeInTheDocument());
  });

  it('offers the event’s chat to an organiser who does not play, and not to a stranger', async () => {
    const chat: RenderChat = (eventId) => <p data-testid="event-chat">Chat of {eventId}</p>;
    const { unmount } = setupView(makeEvent({ viewer: makeViewer({ isOrganiser: true, status: null }) }), chat);
    expect(await screen.findByTestId('event-chat')).toBeInTheDocument();
    unmount();
    setupView(makeEvent({ viewer: makeViewer({ status: null }) }), chat);
    expect(await screen.findByRole('heading', { name: 'Noon skate' })).toBeInTheDocument();
    expect(screen.queryByTestId('event-chat')).not.toBeInTheDocument();
  });

  it('says so when the event does not exist', async () => {
    mockApi({ 'GET /events/nope': { __reply: true, status: 404, body: { error: { code: 'not_found', message: 'no such event' } } } });
    renderWithProviders(<EventPage />, { route: '/events/nope', path: '/events/:id' });
    expect(await screen.findByText('This event is not on Rinkside')).toBeInTheDocument();
  });

  it('says which places are open, live, and gives organisers the call for subs', async () => {
    const short = (goalies: number, skaters: number, version: number) => fullDoc(version, {
      attending: [],
      waitlist: [],
      counts: { skaters, goalies, maxSkaters: 10, maxGoalies: 1, waitlistSkaters: 0, waitlistGoalies: 0 },
    });
    const renderSubsCall = vi.fn<RenderSubsCall>(({ open }) => <button type="button">Find {open.goalies} goalie</button>);
    const { store } = setup(makeEvent({ version: 1, maxSkaters: 10, maxGoalies: 1, viewer: makeViewer({ isOrganiser: true }) }), short(0, 8, 1), {}, renderSubsCall);
    expect(await screen.findByTestId('spots-open-text')).toHaveTextContent('1 goalie spot open · 2 skater spots open');
    expect(screen.getByRole('button', { name: 'Find 1 goalie' })).toBeInTheDocument();
    expect(renderSubsCall).toHaveBeenLastCalledWith({ eventId: 'e-1', open: { goalies: 1, skaters: 2 } });

    act(() => store.set(topicAtomFamily('event:e-1'), { seq: 2, data: short(0, 10, 2) }));
    expect(screen.getByTestId('spots-open-text')).toHaveTextContent('1 goalie spot open');
    act(() => store.set(topicAtomFamily('event:e-1'), { seq: 3, data: short(1, 10, 3) }));
    expect(screen.queryByTestId('spots-open')).not.toBeInTheDocument();
  });

  it('shows the open places to everyone but the call only to organisers', async () => {
    const doc = fullDoc(1, { attending: [], waitlist: [], counts: { skaters: 3, goalies: 1, maxSkaters: 4, maxGoalies: 1, waitlistSkaters: 0, waitlistGoalies: 0 } });
    const renderSubsCall = vi.fn<RenderSubsCall>(() => <span>call</span>);
    setup(makeEvent({ version: 1, maxSkaters: 4, maxGoalies: 1 }), doc, {}, renderSubsCall);
    expect(await screen.findByTestId('spots-open-text')).toHaveTextContent('1 skater spot open');
    expect(renderSubsCall).not.toHaveBeenCalled();
  });

  it('gives organisers the invite card, with the attendees’ version so uses follow RSVPs', async () => {
    const doc = fullDoc(4, { attending: [], waitlist: [] });
    const renderInvites = vi.fn<RenderEventInvites>(() => <p>invite card</p>);
    const { store } = setup(makeEvent({ version: 4, viewer: makeViewer({ isOrganiser: true }) }), doc, {}, undefined, renderInvites);
    expect(await screen.findByText('invite card')).toBeInTheDocument();
    // The attendees' REST read paints first.
    await waitFor(() => expect(renderInvites).toHaveBeenLastCalledWith({ eventId: 'e-1', name: 'Noon skate', version: 4 }));
    act(() => store.set(topicAtomFamily('event:e-1'), { seq: 5, data: fullDoc(5, { attending: [att('u-a', 'CENTER')], waitlist: [] }) }));
    expect(renderInvites).toHaveBeenLastCalledWith({ eventId: 'e-1', name: 'Noon skate', version: 5 });
  });

  it('gives no invite card to a player', async () => {
    const renderInvites = vi.fn<RenderEventInvites>(() => <p>invite card</p>);
    setup(makeEvent({ version: 1 }), fullDoc(1), {}, undefined, renderInvites);
    expect(await screen.findByTestId('event-page')).toBeInTheDocument();
    expect(renderInvites).not.toHaveBeenCalled();
  });

  it('gives organisers no invite card for an event that is over', async () => {
    const renderInvites = vi.fn<RenderEventInvites>(() => <p>invite card</p>);
    setup(makeEvent({ version: 1, startDate: '2020-12-01T17:00:00.000Z', endDate: '2020-12-01T18:30:00.000Z', viewer: makeViewer({ isOrganiser: true }) }), fullDoc(1), {}, undefined, renderInvites);
    expect(await screen.findByTestId('event-page')).toBeInTheDocument();
    expect(renderInvites).not.toHaveBeenCalled();
  });

  it('says why a cancelled event was cancelled, and never shows my place there as a green "You\'re in"', async () => {
    const doc = fullDoc(1, { attending: [att('u-me', 'CENTER')], waitlist: [], counts: { skaters: 1, goalies: 0, maxSkaters: 4, maxGoalies: 1, waitlistSkaters: 0, waitlistGoalies: 0 } });
    setup(makeEvent({ version: 1, cancelledAt: '2026-11-01T00:00:00Z', cancelReason: 'Zamboni broke down.' }), doc);
    expect(await screen.findByText('Cancelled: Zamboni broke down.')).toBeInTheDocument();
    expect(screen.getByTestId('rsvp-status')).toHaveTextContent('Cancelled');
    expect(screen.getByTestId('rsvp-status')).not.toHaveTextContent("You're in");
    expect(screen.getByTestId('rsvp-panel')).not.toHaveClass('rsvp-card--in');
    expect(screen.getByTestId('rsvp-panel')).toHaveClass('rsvp-card--closed');
  });

  it('shows no open places on a cancelled event', async () => {
    const doc = fullDoc(1, { attending: [], waitlist: [], counts: { skaters: 0, goalies: 0, maxSkaters: 4, maxGoalies: 1, waitlistSkaters: 0, waitlistGoalies: 0 } });
    setup(makeEvent({ version: 1, cancelledAt: '2026-11-01T00:00:00Z' }), doc);
    expect(await screen.findByTestId('cancelled-banner')).toBeInTheDocument();
    expect(screen.queryByTestId('spots-open')).not.toBeInTheDocument();
  });

  it('shows a series event\'s weeks: this one marked, cancelled ones struck through; organisers cancel the rest in two taps', async () => {
    // Every Tuesday 9:30 PM in Toronto (02:30 UTC on Wednesdays in winter); the 2nd is this one, the 3rd was moved, the 4th cancelled.
    const weeks = ['2030-12-04', '2030-12-11', '2030-12-18', '2030-12-25', '2031-01-01'];
    const items = weeks.map((d, i) => ({
      id: i === 1 ? 'e-1' : `w-${i + 1}`,
      title: 'Tuesday pickup',
      startDate: `${d}T${i === 2 ? '03:00' : '02:30'}:00Z`,
      endDate: null,
      cancelledAt: i === 3 ? '2030-11-01T00:00:00Z' : null,
    }));
    const event = makeEvent({ id: 'e-1', seriesId: 's-1', startDate: items[1]!.startDate, viewer: makeViewer({ isOrganiser: true }) });
    const series = { id: 's-1', frequency: 'WEEKLY', until: '2031-01-01', timeZone: 'America/Toronto', creatorId: 'u-org', createdAt: '2030-11-01T00:00:00Z', events: items };
    const { server, user } = setup(event, fullDoc(1), {
      'GET /event-series/s-1': series,
      'POST /events/e-1/cancel': () => ({ ...event, cancelledAt: '2030-11-02T00:00:00Z' }),
    });

    const strip = await screen.findByTestId('series-strip');
    await waitFor(() => expect(within(strip).getByTestId('series-pattern')).toHaveTextContent(/^Every Tuesday at 9:30\sPM · until Jan 1, 2031/));
    expect(within(strip).getByTestId('series-position')).toHaveTextContent('Event 2 of 5');
    const chips = within(strip).getAllByRole('link');
    expect(chips).toHaveLength(5);
    expect(chips[1]).toHaveAttribute('aria-current', 'page');
    expect(chips[0]).toHaveAttribute('href', '/events/w-1');
    // The moved week says its own time; the cancelled one says so to screen readers.
    expect(chips[2]).toHaveTextContent(/10:00\sPM/);
    expect(chips[1]).not.toHaveTextContent(/PM/);
    expect(chips[3]).toHaveAccessibleName(/cancelled/);
    expect(chips[3]?.querySelector('s')).not.toBeNull();

    // Cancel this and all following: the first tap arms, the second sends ?scope=following.
    expect(screen.getByTestId('cancel-event')).toHaveTextContent('Cancel this one');
    await user.click(screen.getByTestId('cancel-following'));
    expect(server.callsTo('POST', '/events/e-1/cancel')).toHaveLength(0);
    await user.click(screen.getByTestId('cancel-following'));
    await waitFor(() => expect(server.callsTo('POST', '/events/e-1/cancel')).toHaveLength(1));
    expect(server.callsTo('POST', '/events/e-1/cancel')[0]?.query.get('scope')).toBe('following');
    // The series is read again for the new marks.
    await waitFor(() => expect(server.callsTo('GET', '/event-series/s-1').length).toBeGreaterThan(1));
  });

  it('shows no series strip and the single cancel button for a one-off event', async () => {
    setup(makeEvent({ viewer: makeViewer({ isOrganiser: true }) }), fullDoc(1));
    expect(await screen.findByTestId('cancel-event')).toHaveTextContent('Cancel event');
    expect(screen.queryByTestId('cancel-following')).not.toBeInTheDocument();
    expect(screen.queryByTestId('series-strip')).not.toBeInTheDocument();
  });
});
