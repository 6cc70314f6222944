import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeEvent, makeFacility, makeViewer } from '../../../testing/fixtures';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { CreateEventPage, EditEventPage } from './event-form-page';

// These tests type and click through whole screens; under a busy CI box that
// can pass the 5 s default without anything being wrong.
const TYPING_TIMEOUT_MS = 20_000;

const landing = { path: '/events/:id', element: <p>event page</p> };

/** Within the two years an event may start in, whatever today is. */
const NEXT_YEAR = new Date().getFullYear() + 1;

describe('CreateEventPage', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('creates an event with limits, a facility and groups, then opens it', async () => {
    const server = mockApi({
      'GET /facilities': { items: [makeFacility({ id: 'f-1', name: 'Lakeside Ice' })], nextCursor: null },
      'GET /facilities/f-1': makeFacility({ id: 'f-1', name: 'Lakeside Ice' }),
      'GET /facilities/f-1/seasons': { items: [], nextCursor: null },
      'POST /events': (c) => reply(201, makeEvent({ id: 'e-9', ...(c.body as object) })),
    });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new', extraRoutes: [landing] });

    await user.click(screen.getByTestId('type-PUBLIC_SKATING'));
    await user.type(screen.getByTestId('event-title'), 'Friday pickup');
    await user.type(screen.getByTestId('event-start'), `${NEXT_YEAR}-12-06T21:00`);
    expect(screen.getByTestId('event-end')).toHaveValue(`${NEXT_YEAR}-12-06T22:30`);
    await user.click(screen.getByTestId('event-facility'));
    await user.click(await screen.findByRole('option', { name: /Lakeside Ice/ }));
    await user.type(screen.getByTestId('event-max-skaters'), '20');
    await user.type(screen.getByTestId('event-max-goalies'), '2');
    await user.click(screen.getByTestId('groups-toggle'));
    await user.clear(screen.getByTestId('group-name-1'));
    await user.type(screen.getByTestId('group-name-1'), 'White');
    await user.click(screen.getByTestId('balance-ORDER'));
    await user.click(screen.getByTestId('save-event'));

    await waitFor(() => expect(server.callsTo('POST', '/events')).toHaveLength(1));
    expect(server.callsTo('POST', '/events')[0]?.body).toEqual({
      title: 'Friday pickup',
      eventType: 'PUBLIC_SKATING',
      startDate: new Date(`${NEXT_YEAR}-12-06T21:00`).toISOString(),
      endDate: new Date(`${NEXT_YEAR}-12-06T22:30`).toISOString(),
      facilityId: 'f-1',
      maxSkaters: 20,
      maxGoalies: 2,
      groupConfig: { balanceBy: 'ORDER', groups: [{ name: 'Dark', color: '#1b2a4a' }, { name: 'White', color: '#f2f5fa' }] },
    });
    expect(await screen.findByText('event page')).toBeInTheDocument();
  });

  it('picks the type with the keyboard, one tab stop, opening game details for a game', async () => {
    mockApi({ 'GET /facilities': { items: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new' });
    expect(screen.getByTestId('event-title')).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByTestId('type-PRACTICE')).toHaveFocus();
    expect(screen.queryByTestId('event-home-name')).not.toBeInTheDocument();

    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('type-GAME')).toHaveFocus();
    expect(screen.getByTestId('type-GAME')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('event-home-name')).toBeInTheDocument();
    await user.keyboard('{End}');
    expect(screen.getByTestId('type-EXTERNAL_GAME')).toHaveAttribute('aria-checked', 'true');
    await user.tab();
    expect(screen.getByTestId('event-title')).toHaveFocus();
  });

  it('asks before saving an event that starts in the past, and refuses one decades ahead', async () => {
    const server = mockApi({
      'GET /facilities': { items: [], nextCursor: null },
      'POST /events': (c) => reply(201, makeEvent({ id: 'e-9', ...(c.body as object) })),
    });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new', extraRoutes: [landing] });
    await user.type(screen.getByTestId('event-title'), 'Pickup');
    await user.type(screen.getByTestId('event-start'), '2062-12-06T21:00');
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByText('Pick a start within two years from today.')).toBeInTheDocument();

    await user.clear(screen.getByTestId('event-start'));
    await user.type(screen.getByTestId('event-start'), '2020-12-06T21:00');
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByTestId('past-start-confirm')).toHaveTextContent('This starts in the past');
    expect(server.callsTo('POST', '/events')).toHaveLength(0);
    await user.click(screen.getByTestId('past-start-yes'));
    await waitFor(() => expect(server.callsTo('POST', '/events')).toHaveLength(1));
    expect(await screen.findByText('event page')).toBeInTheDocument();
  });

  it("shows the server's validation messages beside the fields", async () => {
    mockApi({
      'GET /facilities': { items: [], nextCursor: null },
      'POST /events': apiError(422, 'validation_failed', 'invalid fields', { maxSkaters: 'must be 0–500, or null for unlimited', groupConfig: '2 to 4 groups' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new' });
    await user.type(screen.getByTestId('event-title'), 'Pickup');
    await user.type(screen.getByTestId('event-start'), `${NEXT_YEAR}-12-06T21:00`);
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByText('Must be 0–500, or null for unlimited')).toBeInTheDocument();
    expect(screen.getByTestId('event-max-skaters')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('2 to 4 groups')).toBeInTheDocument();
  });

  it('counts the title and refuses a pasted one over 200 characters instead of cutting it', async () => {
    const server = mockApi({ 'GET /facilities': { items: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new' });
    const title = screen.getByTestId('event-title');
    expect(screen.getByText('0/200')).toBeInTheDocument();
    await user.click(title);
    await user.paste('x'.repeat(201));
    expect(title).toHaveValue('x'.repeat(201));
    expect(screen.getByText('201/200')).toHaveClass('field__counter--over');
    expect(screen.getByText('201 characters; at most 200.')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');
    await user.type(screen.getByTestId('event-start'), `${NEXT_YEAR}-12-06T21:00`);
    await user.click(screen.getByTestId('save-event'));
    expect(server.callsTo('POST', '/events')).toHaveLength(0);

    await user.type(title, '{Backspace}');
    expect(screen.getByText('200/200')).not.toHaveClass('field__counter--over');
    expect(screen.queryByText(/characters; at most 200/)).not.toBeInTheDocument();
  });

  it('asks for a title and a start before sending anything', async () => {
    const server = mockApi({ 'GET /facilities': { items: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new' });
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByText('Give the event a name.')).toBeInTheDocument();
    expect(screen.getByText('When does it start?')).toBeInTheDocument();
    expect(server.callsTo('POST', '/events')).toHaveLength(0);
  });
});

describe('EditEventPage', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('sends only what changed, with cleared fields as null', async () => {
    const event = makeEvent({ description: 'Full gear', maxGoalies: 2, externalHomeTeamName: 'Polar Caps', viewer: makeViewer({ isOrganiser: true }) });
    const server = mockApi({
      'GET /events/e-1': event,
      'GET /facilities': { items: [], nextCursor: null },
      'PATCH /events/e-1': (c) => ({ ...event, ...(c.body as object) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EditEventPage />, { route: '/events/e-1/edit', path: '/events/:id/edit', extraRoutes: [landing] });
    const title = await screen.findByTestId('event-title');
    expect(screen.getByTestId('event-home-name')).toHaveValue('Polar Caps');
    await user.clear(title);
    await user.type(title, 'Noon skate (full)');
    await user.clear(screen.getByLabelText(/description/i));
    await user.clear(screen.getByTestId('event-max-goalies'));
    await user.type(screen.getByTestId('event-home-score'), '3');
    await user.click(screen.getByTestId('save-event'));
    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/events/e-1')[0]?.body).toEqual({ title: 'Noon skate (full)', description: null, maxGoalies: null, homeScore: 3 });
    expect(await screen.findByText('event page')).toBeInTheDocument();
  });

  it('is only for organisers', async () => {
    mockApi({ 'GET /events/e-1': makeEvent() });
    renderWithProviders(<EditEventPage />, { route: '/events/e-1/edit', path: '/events/:id/edit' });
    expect(await screen.findByText('Only organisers can edit this event')).toBeInTheDocument();
  });

  it('asks which weeks an edit of a series event is for, and sends ?scope=following when told', async () => {
    const event = makeEvent({ seriesId: 's-1', viewer: makeViewer({ isOrganiser: true }) });
    const server = mockApi({
      'GET /events/e-1': event,
      'GET /facilities': { items: [], nextCursor: null },
      'PATCH /events/e-1': (c) => ({ ...event, ...(c.body as object) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EditEventPage />, { route: '/events/e-1/edit', path: '/events/:id/edit', extraRoutes: [landing] });
    const title = await screen.findByTestId('event-title');
    expect(screen.queryByTestId('repeat-field')).not.toBeInTheDocument();
    await user.clear(title);
    await user.type(title, 'Late skate');
    await user.click(screen.getByTestId('save-event'));

    // Nothing is sent until the organiser picks; the first choice has the focus, Escape goes back.
    expect(await screen.findByRole('alertdialog', { name: 'Save for which weeks?' })).toBeInTheDocument();
    expect(screen.getByTestId('scope-this')).toHaveFocus();
    // "This event only" is the primary, default choice; every later week is the secondary one.
    expect(screen.getByTestId('scope-this')).toHaveTextContent('This event only');
    expect(screen.getByTestId('scope-this')).toHaveClass('btn--primary');
    expect(screen.getByTestId('scope-following')).toHaveClass('btn--secondary');
    expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(0);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('scope-choice')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('save-event'));
    await user.click(await screen.findByRole('button', { name: 'This and all following' }));

    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(1));
    const call = server.callsTo('PATCH', '/events/e-1')[0];
    expect(call?.query.get('scope')).toBe('following');
    expect(call?.body).toEqual({ title: 'Late skate' });
    expect(await screen.findByText('event page')).toBeInTheDocument();
  });

  it('sends no scope for "this event only", and never asks for an event outside a series', async () => {
    const inSeries = makeEvent({ seriesId: 's-1', viewer: makeViewer({ isOrganiser: true }) });
    const server = mockApi({
      'GET /events/e-1': inSeries,
      'GET /facilities': { items: [], nextCursor: null },
      'PATCH /events/e-1': (c) => ({ ...inSeries, ...(c.body as object) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EditEventPage />, { route: '/events/e-1/edit', path: '/events/:id/edit', extraRoutes: [landing] });
    await user.type(await screen.findByTestId('event-max-skaters'), '2');
    await user.click(screen.getByTestId('save-event'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/events/e-1')[0]?.query.has('scope')).toBe(false);
    expect(await screen.findByText('event page')).toBeInTheDocument();
  });

  it('saves a one-off event without asking', async () => {
    const event = makeEvent({ viewer: makeViewer({ isOrganiser: true }) });
    const server = mockApi({
      'GET /events/e-1': event,
      'GET /facilities': { items: [], nextCursor: null },
      'PATCH /events/e-1': (c) => ({ ...event, ...(c.body as object) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EditEventPage />, { route: '/events/e-1/edit', path: '/events/:id/edit', extraRoutes: [landing] });
    await user.type(await screen.findByTestId('event-max-skaters'), '2');
    await user.click(screen.getByTestId('save-event'));
    await waitFor(() => expect(server.callsTo('PATCH', '/events/e-1')).toHaveLength(1));
    expect(screen.queryByTestId('scope-choice')).not.toBeInTheDocument();
    expect(server.callsTo('PATCH', '/events/e-1')[0]?.query.has('scope')).toBe(false);
  });
});

describe('CreateEventPage, repeating', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('makes a weekly series until the picked day, with a live count, in the browser zone', async () => {
    const server = mockApi({
      'GET /facilities': { items: [], nextCursor: null },
      'POST /events': (c) => reply(201, makeEvent({ id: 'e-9', seriesId: 's-1', ...(c.body as object) })),
    });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new', extraRoutes: [landing] });
    await user.click(screen.getByTestId('type-OTHER'));
    await user.type(screen.getByTestId('event-title'), 'Tuesday pickup');
    await user.type(screen.getByTestId('event-start'), `${NEXT_YEAR}-01-05T21:30`);
    await user.click(screen.getByTestId('repeat-WEEKLY'));
    // Eight weeks out by default: nine events.
    expect(screen.getByTestId('series-preview')).toHaveTextContent(/9 events, Jan 5 – Mar 2$/);
    await user.clear(screen.getByTestId('repeat-until'));
    await user.type(screen.getByTestId('repeat-until'), `${NEXT_YEAR}-02-09`);
    expect(screen.getByTestId('series-preview')).toHaveTextContent(/6 events, Jan 5 – Feb 9$/);
    expect(screen.getByTestId('save-event')).toHaveTextContent('Create 6 events');

    // Games never repeat: the control goes away.
    await user.click(screen.getByTestId('type-GAME'));
    expect(screen.queryByTestId('repeat-field')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('type-OTHER'));

    await user.click(screen.getByTestId('save-event'));
    await waitFor(() => expect(server.callsTo('POST', '/events')).toHaveLength(1));
    expect(server.callsTo('POST', '/events')[0]?.body).toMatchObject({
      title: 'Tuesday pickup',
      eventType: 'OTHER',
      repeat: { frequency: 'WEEKLY', until: `${NEXT_YEAR}-02-09`, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    });
    expect(await screen.findByText('event page')).toBeInTheDocument();
  });

  it('refuses more than 52 weeks before sending', async () => {
    const server = mockApi({ 'GET /facilities': { items: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<CreateEventPage />, { route: '/events/new', path: '/events/new' });
    await user.type(screen.getByTestId('event-title'), 'Tuesday pickup');
    await user.type(screen.getByTestId('event-start'), `${NEXT_YEAR}-01-05T21:30`);
    await user.click(screen.getByTestId('repeat-WEEKLY'));
    await user.clear(screen.getByTestId('repeat-until'));
    await user.type(screen.getByTestId('repeat-until'), `${NEXT_YEAR + 1}-01-31`);
    expect(screen.getByTestId('series-preview')).toHaveTextContent('At most 52 events: pick an earlier end');
    await user.click(screen.getByTestId('save-event'));
    expect(await screen.findByText('At most 52 events: pick an earlier end.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/events')).toHaveLength(0);
  });
});
