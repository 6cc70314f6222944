import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeEvent, makeFacility } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { EventsPage } from './events-page';

// These tests type and click through whole screens; under a busy CI box that
// can pass the 5 s default without anything being wrong.
const TYPING_TIMEOUT_MS = 20_000;

describe('EventsPage', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('lists upcoming events soonest first and loads more with the cursor', async () => {
    const server = mockApi({
      'GET /events': (call) =>
        call.query.get('cursor') === 'next-1'
          ? { items: [makeEvent({ id: 'e-3', title: 'Sunday game', eventType: 'GAME', startDate: '2030-12-08T17:00:00.000Z' })], nextCursor: null }
          : {
              items: [
                makeEvent({ id: 'e-1', title: 'Noon skate', location: 'Rink B' }),
                makeEvent({ id: 'e-2', title: 'Stick and puck', eventType: 'PUBLIC_SKATING', startDate: '2030-12-01T19:00:00.000Z', cancelledAt: null }),
              ],
              nextCursor: 'next-1',
            },
    });
    const user = userEvent.setup();
    renderWithProviders(<EventsPage />, { route: '/events', path: '/events' });

    expect(await screen.findByText('Noon skate')).toBeInTheDocument();
    expect(screen.getByText('Rink B')).toBeInTheDocument();
    expect(within(screen.getByTestId('event-card-e-2')).getByText('Public skate')).toBeInTheDocument();
    const first = server.callsTo('GET', '/events')[0];
    expect(first?.query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(first?.query.get('attending')).toBeNull();

    await user.click(screen.getByTestId('load-more'));
    expect(await screen.findByText('Sunday game')).toBeInTheDocument();
    expect(server.callsTo('GET', '/events').at(-1)?.query.get('cursor')).toBe('next-1');
  });

  it('filters by "I\'m attending", "created by me", type and cancelled', async () => {
    const server = mockApi({ 'GET /events': { items: [], nextCursor: null } });
    const user = userEvent.setup();
    renderWithProviders(<EventsPage />, { route: '/events', path: '/events' });
    expect(await screen.findByText('No events coming up')).toBeInTheDocument();

    await user.click(screen.getByTestId('filter-going'));
    await user.click(screen.getByTestId('filter-mine'));
    await user.click(screen.getByTestId('filter-cancelled'));
    await user.selectOptions(screen.getByTestId('filter-type'), 'GAME');
    await user.selectOptions(screen.getByTestId('filter-when'), 'any');
    await waitFor(() => {
      const q = server.callsTo('GET', '/events').at(-1)?.query;
      expect(q?.get('attending')).toBe('me');
      expect(q?.get('createdBy')).toBe('me');
      expect(q?.get('includeCancelled')).toBe('true');
      expect(q?.get('eventType')).toBe('GAME');
      expect(q?.get('from')).toBeNull();
    });
    expect(await screen.findByText('Nothing matches these filters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(server.callsTo('GET', '/events').at(-1)?.query.get('attending')).toBeNull());
  });

  it('at a rink, adds its community events on request and marks them "Community"', async () => {
    const server = mockApi({
      'GET /facilities/f-1': makeFacility({ name: 'Maple Arena' }),
      'GET /events': (call) => ({
        items: [
          makeEvent({ id: 'e-1', title: 'Rink skate', facilityId: 'f-1', hostedByFacility: true }),
          ...(call.query.get('includeCommunity') === 'true' ? [makeEvent({ id: 'e-2', title: 'Pickup by Bob', facilityId: 'f-1', hostedByFacility: false })] : []),
        ],
        nextCursor: null,
      }),
    });
    const user = userEvent.setup();
    renderWithProviders(<EventsPage />, { route: '/events?facility=f-1', path: '/events' });

    expect(await screen.findByText('Rink skate')).toBeInTheDocument();
    expect(server.callsTo('GET', '/events')[0]?.query.get('facilityId')).toBe('f-1');
    expect(server.callsTo('GET', '/events')[0]?.query.get('includeCommunity')).toBeNull();
    expect(within(screen.getByTestId('event-card-e-1')).queryByText('Community')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('filter-community'));
    expect(screen.getByTestId('filter-community')).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Pickup by Bob')).toBeInTheDocument();
    expect(server.callsTo('GET', '/events').at(-1)?.query.get('includeCommunity')).toBe('true');
    expect(within(screen.getByTestId('event-card-e-2')).getByText('Community')).toBeInTheDocument();
    expect(within(screen.getByTestId('event-card-e-1')).queryByText('Community')).not.toBeInTheDocument();
  });

  it('offers "Community events" only once a rink is picked', async () => {
    mockApi({ 'GET /events': { items: [makeEvent()], nextCursor: null } });
    renderWithProviders(<EventsPage />, { route: '/events?community=1', path: '/events' });
    expect(await screen.findByText('Noon skate')).toBeInTheDocument();
    expect(screen.queryByTestId('filter-community')).not.toBeInTheDocument();
  });
});
