import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import type { RinkEvent } from '../../../lib/api-types';
import { makeEvent, makeViewer } from '../../../testing/fixtures';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { AttendeesDoc, AttendingEntry } from '../model/types';
import { EventPage } from './event-page';

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
      { userId: 'u-me', displayName: 'Me Myself', position: 'CENTER', rank: 1, addedAt: '2026-11-01T00:00:00Z' },
      { userId: 'u-w2', displayName: 'Player u-w2', position: 'LEFT_WING', rank: 2, addedAt: '2026-11-01T00:00:00Z' },
    ],
    counts: { skaters: 2, goalies: 1, maxSkaters: 2, maxGoalies: 1, waitlistSkaters: 2, waitlistGoalies: 0 },
    ...over,
  };
}

function setup(event: RinkEvent, doc: AttendeesDoc, extra: Parameters<typeof mockApi>[0] = {}) {
  const server = mockApi({
    'GET /events/e-1': event,
    'GET /events/e-1/attendees': doc,
    'GET /me/positions': [],
    ...extra,
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
  return { server, live, store, user: userEvent.setup() };
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
          waitlist: [{ userId: 'u-w2', displayName: 'Player u-w2', position: 'LEFT_WING', rank: 1, addedAt: '' }],
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

  it('says so when the event does not exist', async () => {
    mockApi({ 'GET /events/nope': { __reply: true, status: 404, body: { error: { code: 'not_found', message: 'no such event' } } } });
    renderWithProviders(<EventPage />, { route: '/events/nope', path: '/events/:id' });
    expect(await screen.findByText('This event is not on Rinkside')).toBeInTheDocument();
  });
});
