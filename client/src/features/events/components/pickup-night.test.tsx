// The organiser's pickup night on screen (docs/pickup-night.md): the rules
// in words and the lock on the RSVP panel, the waitlist's Regular mark, the
// rules form, check-in (the organiser's card and the player's page) and the
// series' regulars.

import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { CommandRejectedError, connectionStateAtom, LiveSocketContext } from '../../../lib/ws';
import type { CheckIns, EventRsvpRules, RinkEvent, RsvpRules, SeriesRegulars } from '../../../lib/api-types';
import { makeEvent, makeFacility, makeViewer } from '../../../testing/fixtures';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { AttendeesDoc } from '../model/types';
import { WaitlistCard } from './attendees';
import { CheckInCard, checkInCount, checkInLink } from './check-in-card';
import { CheckInPage, normaliseCode } from './check-in-page';
import { RegularsCard } from './regulars-card';
import { RsvpPanel } from './rsvp-panel';
import { RsvpRulesCard } from './rsvp-rules-card';

const TYPING_TIMEOUT_MS = 20_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const rules = (over: Partial<EventRsvpRules> = {}): EventRsvpRules => ({
  lateWindowMinutes: 1440,
  openToAllAt: null,
  closesAt: null,
  minSkaters: null,
  minGoalies: null,
  shortCheckAt: null,
  ...over,
});

const fullDoc: AttendeesDoc = {
  version: 4,
  attending: [
    { userId: 'u-a', displayName: 'Ann', position: 'CENTER', respondedAt: '2026-11-01T00:00:00Z', isPaid: null },
    { userId: 'u-b', displayName: 'Ben', position: 'LEFT_WING', respondedAt: '2026-11-01T00:00:00Z', isPaid: null },
  ],
  waitlist: [
    { userId: 'u-me', displayName: 'Me', position: 'CENTER', rank: 1, addedAt: '2026-11-01T00:01:00Z', regular: true },
    { userId: 'u-n', displayName: 'Nico', position: 'CENTER', rank: 2, addedAt: '2026-11-01T00:00:30Z', regular: false },
  ],
  counts: { skaters: 2, goalies: 0, maxSkaters: 2, maxGoalies: 1, waitlistSkaters: 2, waitlistGoalies: 0 },
};

const openDoc: AttendeesDoc = { ...fullDoc, waitlist: [], counts: { ...fullDoc.counts, maxSkaters: 10, waitlistSkaters: 0 } };

function panel(event: RinkEvent, doc: AttendeesDoc) {
  mockApi({ 'GET /me/positions': [] });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <RsvpPanel event={event} doc={doc} userId="u-me" cancelled={false} over={false} />
    </LiveSocketContext.Provider>,
    { store },
  );
  return { live, user: userEvent.setup() };
}

describe('the RSVP panel under the rules', { timeout: TYPING_TIMEOUT_MS }, () => {
  const start = Date.now() + 3 * 60 * MINUTE;

  it('tells a waitlisted regular where they stand among regulars, and when the lock comes', () => {
    const event = makeEvent({
      startDate: iso(start),
      endDate: iso(start + 90 * MINUTE),
      rsvpRules: rules({ openToAllAt: iso(start - 60 * MINUTE), closesAt: iso(start - 30 * MINUTE) }),
      viewer: makeViewer({ status: 'WAITLISTED', waitlistRank: 1, position: 'CENTER', isRegular: true }),
    });
    panel(event, fullDoc);
    expect(screen.getByTestId('rules-notice-regulars')).toHaveTextContent(/^Regulars until .+, then open to all · you are #1 among regulars$/);
    expect(screen.getByTestId('rules-notice-lock')).toHaveTextContent(/^RSVPs lock .+$/);
    expect(screen.queryByTestId('check-in-link')).not.toBeInTheDocument();
  });

  it('after the lock: the join button is off for someone not in, and says so', () => {
    const event = makeEvent({ startDate: iso(start), endDate: iso(start + 90 * MINUTE), rsvpRules: rules({ closesAt: iso(Date.now() - MINUTE) }), viewer: makeViewer({ status: 'DECLINED' }) });
    panel(event, openDoc);
    expect(screen.getByTestId('rules-notice-lock')).toHaveTextContent(/^RSVPs closed .+ — ask the organiser$/);
    expect(screen.getByTestId('rsvp-in')).toBeDisabled();
    expect(screen.getByTestId('rsvp-in')).toHaveTextContent('RSVPs closed');
  });

  it('after the lock someone in may still drop out; an organiser may still answer', async () => {
    const locked = rules({ closesAt: iso(Date.now() - MINUTE) });
    const attending = makeEvent({ startDate: iso(Date.now() + 60 * MINUTE), rsvpRules: locked, viewer: makeViewer({ status: 'ATTENDING', position: 'CENTER' }) });
    const { unmount } = renderPanelOnce(attending, { ...openDoc, attending: [...openDoc.attending, { userId: 'u-me', displayName: 'Me', position: 'CENTER', respondedAt: '', isPaid: null }] });
    expect(screen.getByTestId('rules-notice-lock')).toHaveTextContent('you can still drop out');
    expect(screen.getByTestId('rsvp-out')).toBeEnabled();
    // Within three hours of puck drop, someone in is offered check-in.
    expect(screen.getByTestId('check-in-link')).toHaveAttribute('href', '/events/e-1/check-in');
    unmount();

    const organiser = makeEvent({ startDate: iso(start), rsvpRules: locked, viewer: makeViewer({ isOrganiser: true }) });
    renderPanelOnce(organiser, openDoc);
    expect(screen.getByTestId('rules-notice-lock')).toHaveTextContent('as an organiser you can still answer');
    expect(screen.getByTestId('rsvp-in')).toBeEnabled();
  });

  it("shows the server's refusal when the lock passed before the page knew", async () => {
    const event = makeEvent({ startDate: iso(start), rsvpRules: rules({ closesAt: iso(start - 30 * MINUTE) }) });
    const { live, user } = panel(event, openDoc);
    await user.click(screen.getByTestId('rsvp-in'));
    await act(async () => live.last().reject(new CommandRejectedError('conflict', 'RSVPs for this event are closed; you can still drop out, or ask the organiser')));
    expect(await screen.findByText('RSVPs for this event are closed; you can still drop out, or ask the organiser')).toBeInTheDocument();
  });

  it('says nothing of rules that are off', () => {
    panel(makeEvent({ startDate: iso(start) }), openDoc);
    expect(screen.queryByTestId('rules-notices')).not.toBeInTheDocument();
  });
});

function renderPanelOnce(event: RinkEvent, doc: AttendeesDoc) {
  mockApi({ 'GET /me/positions': [] });
  const live = fakeLiveSocket();
  return renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <RsvpPanel event={event} doc={doc} userId="u-me" cancelled={false} over={false} />
    </LiveSocketContext.Provider>,
  );
}

describe('the waitlist', () => {
  it('marks the regulars', () => {
    renderWithProviders(<WaitlistCard doc={fullDoc} myId="u-me" />);
    expect(screen.getByTestId('regular-u-me')).toHaveTextContent('Regular');
    expect(screen.queryByTestId('regular-u-n')).not.toBeInTheDocument();
  });
});

const savedRules = (over: Partial<RsvpRules> = {}): RsvpRules => ({
  lateWindowMinutes: null,
  regularsFirstMinutes: null,
  cutoffMinutes: null,
  minSkaters: null,
  minGoalies: null,
  shortCheckMinutes: null,
  openToAllAt: null,
  closesAt: null,
  shortCheckAt: null,
  regulars: [{ userId: 'u-r', displayName: 'Rita Regular', source: 'SERIES' }],
  ...over,
});

describe('RsvpRulesCard', { timeout: TYPING_TIMEOUT_MS }, () => {
  // A rink in Toronto: Tuesday Dec 3, 2030, 9:30 PM there.
  const event = makeEvent({ eventType: 'OTHER', seriesId: 's-1', facilityId: 'f-1', startDate: '2030-12-04T02:30:00.000Z', viewer: makeViewer({ isOrganiser: true }) });
  const rink = makeFacility({ id: 'f-1', timezone: 'America/Toronto' });

  it('previews the rules as moments, checks them as typed and saves minutes', async () => {
    const server = mockApi({
      'GET /events/e-1/rsvp-rules': savedRules(),
      'PUT /events/e-1/rsvp-rules': (call) => savedRules(call.body as Partial<RsvpRules>),
      'GET /events/e-1': event,
      'GET /facilities/f-1': rink,
    });
    renderWithProviders(<RsvpRulesCard event={event} />);
    const user = userEvent.setup();
    await screen.findByTestId('event-rules-form');
    expect(screen.getByTestId('event-regular-u-r')).toHaveTextContent('Rita Regular');
    expect(screen.getByTestId('series-page-link')).toHaveAttribute('href', '/series/s-1');
    expect(screen.getByTestId('event-rules-save')).toBeDisabled();

    await user.type(screen.getByTestId('event-rules-regularsFirst'), '48');
    await user.type(screen.getByTestId('event-rules-cutoff'), 'soon');
    await user.type(screen.getByTestId('event-rules-checkAt'), '10:00');
    await user.click(screen.getByTestId('event-rules-save'));
    expect(await screen.findByText('A number of hours, like 2 or 1.5; blank for off.')).toBeInTheDocument();
    expect(server.callsTo('PUT', '/events/e-1/rsvp-rules')).toHaveLength(0);

    await user.clear(screen.getByTestId('event-rules-cutoff'));
    await user.type(screen.getByTestId('event-rules-cutoff'), '2');
    await user.click(screen.getByTestId('event-rules-save'));
    expect(await screen.findByText('Set a minimum of skaters or goalies for the check to look at.')).toBeInTheDocument();

    await user.type(screen.getByTestId('event-rules-minSkaters'), '10');
    const preview = screen.getByTestId('event-rules-preview');
    expect(preview).toHaveTextContent(/Opens to all Sun, Dec 1, 9:30\sPM/);
    expect(preview).toHaveTextContent(/RSVPs lock on Tue, Dec 3 at 7:30\sPM/);
    expect(preview).toHaveTextContent(/Game-day check on Tue, Dec 3 at 10:00\sAM.*: below 10 skaters it calls for subs/);
    await user.click(screen.getByTestId('event-rules-save'));
    await waitFor(() =>
      expect(server.callsTo('PUT', '/events/e-1/rsvp-rules')[0]?.body).toEqual({
        lateWindowMinutes: null,
        regularsFirstMinutes: 2880,
        cutoffMinutes: 120,
        minSkaters: 10,
        minGoalies: null,
        shortCheckMinutes: 690,
      }),
    );
    expect(await screen.findByTestId('event-rules-saved')).toHaveTextContent('Saved');
  });

  it("puts the server's complaint beside its field", async () => {
    mockApi({
      'GET /events/e-1/rsvp-rules': savedRules(),
      'PUT /events/e-1/rsvp-rules': apiError(422, 'validation', 'invalid', { cutoffMinutes: 'must be at most 10080' }),
    });
    renderWithProviders(<RsvpRulesCard event={event} />);
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('event-rules-cutoff'), '3');
    await user.click(screen.getByTestId('event-rules-save'));
    expect(await screen.findByText('Must be at most 10080')).toBeInTheDocument();
  });

  it('stays away when the rules are not mine to read', async () => {
    mockApi({ 'GET /events/e-1/rsvp-rules': apiError(403, 'forbidden', 'not an organiser') });
    renderWithProviders(<RsvpRulesCard event={event} />);
    await waitFor(() => expect(screen.queryByTestId('rsvp-rules')).not.toBeInTheDocument());
  });
});

const checkIns = (over: Partial<CheckIns> = {}): CheckIns => ({
  items: [
    { userId: 'u-g', displayName: 'Gus Steady', position: 'CENTER', checkedInAt: null, checkedInById: null },
    { userId: 'u-r', displayName: 'Rita Regular', position: 'GOALIE', checkedInAt: '2030-12-04T02:00:00Z', checkedInById: 'u-r' },
  ],
  code: 'ABCD2345',
  checkedIn: 1,
  expected: 2,
  ...over,
});

describe('CheckInCard', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('shows the count, the code and a QR code of the link; one tap checks in, another undoes', async () => {
    let list = checkIns();
    const server = mockApi({
      'GET /events/e-1/check-ins': () => list,
      'PUT /events/e-1/check-ins/:userId': (_call, { userId }) => {
        list = { ...list, checkedIn: 2, items: list.items.map((r) => (r.userId === userId ? { ...r, checkedInAt: '2030-12-04T02:05:00Z', checkedInById: 'u-org' } : r)) };
        return list.items.find((r) => r.userId === userId);
      },
      'DELETE /events/e-1/check-ins/:userId': (_call, { userId }) => {
        list = { ...list, checkedIn: list.checkedIn - 1, items: list.items.map((r) => (r.userId === userId ? { ...r, checkedInAt: null, checkedInById: null } : r)) };
        return list;
      },
    });
    renderWithProviders(<CheckInCard eventId="e-1" />);
    const user = userEvent.setup();
    expect(await screen.findByTestId('check-in-count')).toHaveTextContent('1 of 2 checked in');
    expect(screen.getByTestId('check-in-code')).toHaveTextContent('ABCD2345');
    expect(screen.getByTestId('check-in-qr')).toHaveAttribute('data-text', `${window.location.origin}/events/e-1/check-in?code=ABCD2345`);
    expect(screen.getByRole('img', { name: /QR code to check in/ })).toBeInTheDocument();
    expect(screen.getByTestId('check-in-u-r')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('check-in-u-r')).toHaveTextContent(/Here · by code/);

    await user.click(screen.getByTestId('check-in-u-g'));
    await waitFor(() => expect(screen.getByTestId('check-in-u-g')).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByTestId('check-in-count')).toHaveTextContent('2 of 2 checked in');
    expect(server.callsTo('PUT', '/events/e-1/check-ins/u-g')).toHaveLength(1);

    await user.click(screen.getByTestId('check-in-u-r'));
    await waitFor(() => expect(screen.getByTestId('check-in-u-r')).toHaveAttribute('aria-pressed', 'false'));
    expect(screen.getByTestId('check-in-count')).toHaveTextContent('1 of 2 checked in');
    expect(server.callsTo('DELETE', '/events/e-1/check-ins/u-r')).toHaveLength(1);
  });

  it('builds the link and the count line', () => {
    expect(checkInLink('e 1', 'AB', 'https://rinkside.example')).toBe('https://rinkside.example/events/e%201/check-in?code=AB');
    expect(checkInCount(12, 16)).toBe('12 of 16 checked in');
    expect(normaliseCode(' ab-cd 23 ')).toBe('ABCD23');
  });
});

describe('CheckInPage', { timeout: TYPING_TIMEOUT_MS }, () => {
  const attending = makeEvent({ title: 'Late-night pickup', viewer: makeViewer({ status: 'ATTENDING', position: 'CENTER' }) });
  const renderAt = (route: string) => renderWithProviders(<CheckInPage />, { route, path: '/events/:id/check-in' });

  it("checks an attending player in from the QR code's link, once", async () => {
    const server = mockApi({ 'GET /events/e-1': attending, 'POST /events/e-1/check-in': { userId: 'u-me', displayName: 'Me', position: 'CENTER', checkedInAt: '2030-12-04T02:00:00Z', checkedInById: 'u-me' } });
    renderAt('/events/e-1/check-in?code=abcd2345');
    expect(await screen.findByTestId('check-in-done')).toHaveTextContent("You're checked in");
    expect(server.callsTo('POST', '/events/e-1/check-in').map((c) => c.body)).toEqual([{ code: 'ABCD2345' }]);
  });

  it('takes a typed code, and says why a wrong one is refused', async () => {
    let tries = 0;
    mockApi({
      'GET /events/e-1': attending,
      'POST /events/e-1/check-in': () => (++tries === 1 ? apiError(422, 'validation', 'invalid', { code: "that is not this event's check-in code" }) : { userId: 'u-me', displayName: 'Me', position: 'CENTER', checkedInAt: '2030-12-04T02:00:00Z', checkedInById: 'u-me' }),
    });
    renderAt('/events/e-1/check-in');
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('check-in-code-input'), 'wrong-234');
    expect(screen.getByTestId('check-in-code-input')).toHaveValue('WRONG234');
    await user.click(screen.getByTestId('check-in-submit'));
    expect(await screen.findByText("That is not this event's check-in code")).toBeInTheDocument();
    await user.clear(screen.getByTestId('check-in-code-input'));
    await user.type(screen.getByTestId('check-in-code-input'), 'ABCD2345');
    await user.click(screen.getByTestId('check-in-submit'));
    expect(await screen.findByTestId('check-in-done')).toBeInTheDocument();
  });

  it('sends nothing for someone not attending', async () => {
    const server = mockApi({ 'GET /events/e-1': makeEvent({ viewer: makeViewer({ status: 'WAITLISTED', waitlistRank: 2 }) }) });
    renderAt('/events/e-1/check-in?code=ABCD2345');
    expect(await screen.findByTestId('check-in-not-attending')).toHaveTextContent("You're on the waitlist");
    expect(server.callsTo('POST', '/events/e-1/check-in')).toHaveLength(0);
  });

  it("gives an organiser without a code the rink's check-in screen", async () => {
    mockApi({ 'GET /events/e-1': makeEvent({ viewer: makeViewer({ isOrganiser: true }) }), 'GET /events/e-1/check-ins': checkIns(), 'GET /events/e-1/attendees': openDoc });
    renderAt('/events/e-1/check-in');
    expect(await screen.findByTestId('check-in-count')).toHaveTextContent('1 of 2 checked in');
    expect(screen.queryByTestId('check-in-screen-link')).not.toBeInTheDocument();
  });
});

describe('RegularsCard', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('adds a past attendee in one tap and removes a regular', async () => {
    let data: SeriesRegulars = {
      items: [
        { userId: 'u-r', displayName: 'Rita Regular', source: 'SERIES' },
        { userId: 'u-t', displayName: 'Tom Team', source: 'ROSTER' },
      ],
      suggestions: [{ userId: 'u-s', displayName: 'Sam Often', attended: 6 }],
    };
    const server = mockApi({
      'GET /event-series/s-1/regulars': () => data,
      'PUT /event-series/s-1/regulars/:userId': (_c, { userId }) => {
        data = { items: [...data.items, { userId: userId ?? '', displayName: 'Sam Often', source: 'SERIES' }], suggestions: [] };
        return data;
      },
      'DELETE /event-series/s-1/regulars/:userId': (_c, { userId }) => {
        data = { ...data, items: data.items.filter((r) => r.userId !== userId) };
        return data;
      },
      'GET /users': { items: [], nextCursor: null },
    });
    renderWithProviders(<RegularsCard seriesId="s-1" />);
    const user = userEvent.setup();
    const list = await screen.findByTestId('regulars-list');
    expect(within(list).getByTestId('regular-row-u-t')).toHaveTextContent('roster');
    expect(screen.queryByTestId('remove-regular-u-t')).not.toBeInTheDocument();
    expect(screen.getByTestId('add-regular-u-s')).toHaveAccessibleName('Add Sam Often to the regulars (came 6 times)');

    await user.click(screen.getByTestId('add-regular-u-s'));
    expect(await screen.findByTestId('regular-row-u-s')).toHaveTextContent('Sam Often');
    expect(server.callsTo('PUT', '/event-series/s-1/regulars/u-s')).toHaveLength(1);

    await user.click(screen.getByTestId('remove-regular-u-r'));
    await waitFor(() => expect(screen.queryByTestId('regular-row-u-r')).not.toBeInTheDocument());
    expect(server.callsTo('DELETE', '/event-series/s-1/regulars/u-r')).toHaveLength(1);
  });
});
