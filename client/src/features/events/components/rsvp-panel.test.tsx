import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, useAtomValue } from 'jotai';
import { CommandRejectedError, connectionStateAtom, LiveSocketContext, topicAtomFamily, UnknownOutcomeError, type ConnectionState } from '../../../lib/ws';
import type { PlayerPosition, RinkEvent } from '../../../lib/api-types';
import { makeEvent, makeViewer } from '../../../testing/fixtures';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { eventDocAtomFamily } from '../atoms';
import type { AttendeesDoc } from '../model/types';
import { RsvpPanel } from './rsvp-panel';

// These tests type and click through whole screens; under a busy CI box that
// can pass the 5 s default without anything being wrong.
const TYPING_TIMEOUT_MS = 20_000;

const preferredLeftWing: PlayerPosition[] = [
  { id: 'p1', position: 'CENTER', skillLevel: 'ADVANCED', isPreferred: false, createdAt: '', updatedAt: '' },
  { id: 'p2', position: 'LEFT_WING', skillLevel: 'ADVANCED', isPreferred: true, createdAt: '', updatedAt: '' },
];

const openDoc: AttendeesDoc = {
  version: 1,
  attending: [{ userId: 'u-x', displayName: 'X', position: 'CENTER', respondedAt: '2026-11-01T00:00:00Z', isPaid: null }],
  waitlist: [],
  counts: { skaters: 1, goalies: 0, maxSkaters: 10, maxGoalies: 2, waitlistSkaters: 0, waitlistGoalies: 0 },
};

function setup({ event = makeEvent(), doc = openDoc, connection = 'live', cancelled = false }: { event?: RinkEvent; doc?: AttendeesDoc | null; connection?: ConnectionState; cancelled?: boolean } = {}) {
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, connection);
  const view = renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <RsvpPanel event={event} doc={doc} userId="u-me" cancelled={cancelled} over={false} />
    </LiveSocketContext.Provider>,
    { store },
  );
  return { ...view, live, user: userEvent.setup() };
}

const status = () => screen.getByTestId('rsvp-status');

describe('RsvpPanel', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('defaults to my preferred position and shows the outcome the reply gives: "Waitlisted #3"', async () => {
    mockApi({ 'GET /me/positions': preferredLeftWing });
    const { live, user } = setup();
    expect(status()).toHaveTextContent('Are you in?');
    expect(screen.getByText('9 skater spots left.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Left wing' })).toHaveAttribute('aria-checked', 'true'));

    await user.click(screen.getByTestId('rsvp-in'));
    expect(live.last().command).toEqual({ kind: 'rsvp', eventId: 'e-1', action: 'ATTENDING', position: 'LEFT_WING' });
    expect(screen.getByTestId('rsvp-in')).toBeDisabled();
    expect(screen.getByTestId('rsvp-out')).toBeDisabled();

    await act(async () => live.last().resolve({ status: 'WAITLISTED', waitlistRank: 3, version: 5 }));
    expect(status()).toHaveTextContent('Waitlisted #3');
    expect(screen.getByText(/3rd in line for a skater spot/)).toBeInTheDocument();
    expect(screen.getByTestId('rsvp-out')).toHaveTextContent('Leave the waitlist');
    expect(screen.queryByTestId('rsvp-in')).not.toBeInTheDocument();
  });

  it('says "You\'re in" on an attending reply, and "Can\'t make it" declines', async () => {
    mockApi({ 'GET /me/positions': [] });
    const { live, user } = setup();
    await user.click(screen.getByRole('radio', { name: 'Goalie' }));
    await user.click(screen.getByTestId('rsvp-in'));
    expect(live.last().command).toMatchObject({ action: 'ATTENDING', position: 'GOALIE' });
    await act(async () => live.last().resolve({ status: 'ATTENDING', waitlistRank: null, version: 2 }));
    expect(status()).toHaveTextContent("You're in");

    await user.click(screen.getByTestId('rsvp-out'));
    expect(live.last().command).toEqual({ kind: 'rsvp', eventId: 'e-1', action: 'DECLINED' });
    await act(async () => live.last().resolve({ status: 'DECLINED', waitlistRank: null, version: 3 }));
    expect(status()).toHaveTextContent("You're out");
    expect(screen.getByTestId('rsvp-in')).toBeEnabled();
    expect(screen.queryByTestId('rsvp-out')).not.toBeInTheDocument();
  });

  it("asks before \"Can't make it\" gives my place to the waitlist, and keeping it is the default", async () => {
    mockApi({ 'GET /me/positions': [] });
    const fullWithLine: AttendeesDoc = {
      version: 3,
      attending: [{ userId: 'u-me', displayName: 'Me', position: 'CENTER', respondedAt: '2026-11-01T00:00:00Z', isPaid: null }],
      waitlist: [{ userId: 'u-w', displayName: 'W', position: 'LEFT_WING', rank: 1, addedAt: '2026-11-01T00:00:00Z', regular: false }],
      counts: { skaters: 1, goalies: 0, maxSkaters: 1, maxGoalies: 1, waitlistSkaters: 1, waitlistGoalies: 0 },
    };
    const { live, user } = setup({ doc: fullWithLine });
    expect(status()).toHaveTextContent("You're in");
    await user.click(screen.getByTestId('rsvp-out'));
    expect(live.command).not.toHaveBeenCalled();
    const confirm = screen.getByTestId('rsvp-out-confirm');
    expect(confirm).toHaveTextContent('Give up your place? The skater on the waitlist gets it right away.');
    expect(screen.getByTestId('rsvp-keep')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('rsvp-out-confirm')).not.toBeInTheDocument();
    expect(live.command).not.toHaveBeenCalled();

    await user.click(screen.getByTestId('rsvp-out'));
    await user.click(screen.getByTestId('rsvp-give-up'));
    expect(live.last().command).toEqual({ kind: 'rsvp', eventId: 'e-1', action: 'DECLINED' });
  });

  it('on an unknown outcome says "Checking…", re-reads the event and never claims a failure', async () => {
    let answer: (v: unknown) => void = () => {};
    const server = mockApi({
      'GET /me/positions': [],
      'GET /events/e-1': () => new Promise((resolve) => (answer = resolve)),
    });
    const { live, user } = setup();
    await user.click(screen.getByTestId('rsvp-in'));
    await act(async () => live.last().reject(new UnknownOutcomeError('c-1', true)));

    expect(await screen.findByTestId('rsvp-checking')).toHaveTextContent('Checking…');
    expect(screen.getByTestId('rsvp-in')).toBeDisabled();
    await waitFor(() => expect(server.callsTo('GET', '/events/e-1')).toHaveLength(1));

    await act(async () => answer(makeEvent({ version: 2, viewer: makeViewer({ status: 'WAITLISTED', waitlistRank: 1, position: 'CENTER' }) })));
    await waitFor(() => expect(screen.queryByTestId('rsvp-checking')).not.toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('after "Checking…" shows a neutral note when the re-read does not show the answer yet', async () => {
    mockApi({ 'GET /me/positions': [], 'GET /events/e-1': makeEvent({ version: 1 }) });
    const { live, user } = setup();
    await user.click(screen.getByTestId('rsvp-in'));
    await act(async () => live.last().reject(new UnknownOutcomeError('c-1', true)));
    expect(await screen.findByText(/has not confirmed your answer yet/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByTestId('rsvp-in')).toBeEnabled();
  });

  it('holds a tap made while the server is out of reach ("Not sent yet") and sends it once, with the same key, when the socket is back', async () => {
    const down = () => {
      throw new TypeError('Failed to fetch');
    };
    const server = mockApi({ 'GET /me/positions': [], 'PUT /events/e-1/rsvp': down, 'GET /events/e-1': down });
    const { live, user, store } = setup({ connection: 'reconnecting' });
    await user.click(screen.getByTestId('rsvp-in'));
    expect(await screen.findByTestId('rsvp-unsent')).toHaveTextContent("Not sent yet");
    expect(screen.getByTestId('rsvp-unsent')).toHaveTextContent("Your answer (I'm in) goes out by itself when the connection is back.");
    expect(screen.getByTestId('rsvp-in')).toBeDisabled();
    const [rest] = server.callsTo('PUT', '/events/e-1/rsvp');
    const key = rest?.headers['Idempotency-Key'];
    expect(key).toMatch(/.{8,}/);
    expect(live.command).not.toHaveBeenCalled();

    act(() => store.set(connectionStateAtom, 'live'));
    await waitFor(() => expect(live.command).toHaveBeenCalledTimes(1));
    expect(live.last().command).toEqual({ kind: 'rsvp', eventId: 'e-1', action: 'ATTENDING', position: 'CENTER' });
    expect(live.last().id).toBe(key);
    await act(async () => live.last().resolve({ status: 'ATTENDING', waitlistRank: null, version: 2 }));
    expect(status()).toHaveTextContent("You're in");
    expect(screen.queryByTestId('rsvp-unsent')).not.toBeInTheDocument();
    // Live again and again: nothing more goes out.
    act(() => store.set(connectionStateAtom, 'reconnecting'));
    act(() => store.set(connectionStateAtom, 'live'));
    expect(live.command).toHaveBeenCalledTimes(1);
  });

  it('a held tap can be sent again now ("Retry", same key) or forgotten ("Don\'t send")', async () => {
    const keys: string[] = [];
    const down = (call: { headers: Record<string, string> }) => {
      keys.push(call.headers['Idempotency-Key'] ?? '');
      throw new TypeError('Failed to fetch');
    };
    mockApi({ 'GET /me/positions': [], 'PUT /events/e-1/rsvp': down, 'GET /events/e-1': () => { throw new TypeError('Failed to fetch'); } });
    const { user } = setup({ connection: 'reconnecting' });
    await user.click(screen.getByTestId('rsvp-in'));
    await screen.findByTestId('rsvp-unsent');
    await user.click(screen.getByTestId('rsvp-retry'));
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[1]).toBe(keys[0]);
    await screen.findByTestId('rsvp-unsent');
    await user.click(screen.getByTestId('rsvp-drop'));
    expect(screen.queryByTestId('rsvp-unsent')).not.toBeInTheDocument();
    expect(status()).toHaveTextContent('Are you in?');
    expect(screen.getByTestId('rsvp-in')).toBeEnabled();
  });

  it('holds a socket command that never left the tab, whatever the re-read says', async () => {
    mockApi({ 'GET /me/positions': [], 'GET /events/e-1': makeEvent({ version: 1 }) });
    const { live, user } = setup();
    await user.click(screen.getByTestId('rsvp-in'));
    const first = live.last();
    await act(async () => first.reject(new UnknownOutcomeError(first.id ?? '', false)));
    expect(await screen.findByTestId('rsvp-unsent')).toBeInTheDocument();
    await user.click(screen.getByTestId('rsvp-retry'));
    expect(live.command).toHaveBeenCalledTimes(2);
    expect(live.last().id).toBe(first.id);
  });

  it("shows the server's refusal when it says no", async () => {
    mockApi({ 'GET /me/positions': [] });
    const { live, user } = setup();
    await user.click(screen.getByTestId('rsvp-in'));
    await act(async () => live.last().reject(new CommandRejectedError('conflict', 'the event is cancelled')));
    expect(await screen.findByRole('alert')).toHaveTextContent('The event is cancelled');
    expect(status()).toHaveTextContent('Are you in?');
  });

  it('answers over REST with an idempotency key while the socket is down', async () => {
    const server = mockApi({
      'GET /me/positions': [],
      'PUT /events/e-1/rsvp': reply(200, { status: 'ATTENDING', waitlistRank: null, version: 2 }),
    });
    const { live, user } = setup({ connection: 'reconnecting' });
    await user.click(screen.getByTestId('rsvp-in'));
    await waitFor(() => expect(status()).toHaveTextContent("You're in"));
    expect(live.command).not.toHaveBeenCalled();
    const [call] = server.callsTo('PUT', '/events/e-1/rsvp');
    expect(call?.body).toEqual({ action: 'ATTENDING', position: 'CENTER' });
    expect(call?.headers['Idempotency-Key']).toMatch(/.{8,}/);
  });

  it('starts from my standing on the event, and follows the live document over it', async () => {
    mockApi({ 'GET /me/positions': [] });
    const event = makeEvent({ version: 4, viewer: makeViewer({ status: 'WAITLISTED', waitlistRank: 2, position: 'RIGHT_WING' }) });
    const live = fakeLiveSocket();
    const store = createStore();
    store.set(connectionStateAtom, 'live');
    function FromTopic() {
      const doc = useAtomValue(eventDocAtomFamily('e-1'));
      return <RsvpPanel event={event} doc={doc} userId="u-me" cancelled={false} over={false} />;
    }
    renderWithProviders(
      <LiveSocketContext.Provider value={live.socket}>
        <FromTopic />
      </LiveSocketContext.Provider>,
      { store },
    );
    expect(status()).toHaveTextContent('Waitlisted #2');
    expect(screen.getByRole('radio', { name: 'Right wing' })).toHaveAttribute('aria-checked', 'true');
    const promoted: AttendeesDoc = {
      ...openDoc,
      version: 5,
      attending: [...openDoc.attending, { userId: 'u-me', displayName: 'Me', position: 'RIGHT_WING', respondedAt: '', isPaid: null }],
    };
    act(() => store.set(topicAtomFamily('event:e-1'), { seq: 5, data: promoted }));
    expect(status()).toHaveTextContent("You're in");
  });

  it('closes answers on a cancelled event', () => {
    mockApi({ 'GET /me/positions': [] });
    setup({ cancelled: true });
    expect(screen.getByText('This event is cancelled, so answers are closed.')).toBeInTheDocument();
    expect(screen.queryByTestId('rsvp-in')).not.toBeInTheDocument();
    expect(screen.queryByTestId('rsvp-out')).not.toBeInTheDocument();
  });

  it('says "no goalie places" to a goalie at a skaters-only event and starts on a skater position', async () => {
    mockApi({ 'GET /me/positions': [{ id: 'p1', position: 'GOALIE', skillLevel: 'ADVANCED', isPreferred: true, createdAt: '', updatedAt: '' }] });
    const skatersOnly: AttendeesDoc = { ...openDoc, counts: { ...openDoc.counts, maxGoalies: 0 } };
    const { live, user } = setup({ doc: skatersOnly });
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Center' })).toHaveAttribute('aria-checked', 'true'));
    await user.click(screen.getByRole('radio', { name: 'Goalie' }));
    expect(screen.getByText('No goalie places at this event: pick a skater position to join.')).toBeInTheDocument();
    expect(screen.getByTestId('rsvp-in')).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Right defense' }));
    await user.click(screen.getByTestId('rsvp-in'));
    expect(live.last().command).toEqual({ kind: 'rsvp', eventId: 'e-1', action: 'ATTENDING', position: 'RIGHT_DEFENSE' });
  });
});
