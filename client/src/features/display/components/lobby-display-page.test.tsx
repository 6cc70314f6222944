import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { createStore } from 'jotai';
import type { SpotsDocument } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { makeFacility } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { LobbyDisplayPage, openEvents } from './lobby-display-page';

// Midday, so "in 45 min" is still today wherever and whenever the tests run
// (late in the evening it would be "Tomorrow").
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-24T12:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const inMin = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
type SpotEvent = SpotsDocument['events'][number];
const spot = (id: string, startDate: string, open: SpotEvent['open'], over: Partial<SpotEvent> = {}): SpotEvent => ({
  id,
  title: `Game ${id}`,
  startDate,
  facilityId: 'f-1',
  facilityName: 'Lakeside Ice',
  timezone: 'UTC',
  open,
  maxSkaters: 10,
  maxGoalies: 1,
  cancelled: false,
  level: 'INTERMEDIATE',
  ...over,
});
const doc = (events: SpotEvent[]): SpotsDocument => ({ facilityId: 'f-1', facilityName: 'Lakeside Ice', timezone: 'UTC', events });

function setup(routes: Parameters<typeof mockApi>[0] = { 'GET /facilities/f-1': makeFacility() }) {
  mockApi(routes);
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <LobbyDisplayPage />
    </LiveSocketContext.Provider>,
    { store, user: null, route: '/display/facility/f-1/subs', path: '/display/facility/:id/subs' },
  );
  const push = (d: SpotsDocument, seq: number) => act(() => store.set(topicAtomFamily('spots:f-1'), { seq, data: d }));
  return { live, push };
}

describe('openEvents', () => {
  it('keeps games not yet started with a place open, soonest first', () => {
    const now = new Date();
    const events = openEvents(doc([spot('b', inMin(90), { goalies: 1, skaters: 0 }), spot('gone', inMin(-5), { goalies: 1, skaters: 0 }), spot('full', inMin(30), { goalies: 0, skaters: null }), spot('a', inMin(45), { goalies: null, skaters: 2 })]), now);
    expect(events.map((e) => e.id)).toEqual(['a', 'b']);
  });
});

describe('LobbyDisplayPage', () => {
  it("shows tonight's open spots by role and level, live from the rink's topic, signed out", async () => {
    const { live, push } = setup();
    expect(live.subscribe).toHaveBeenCalledWith('spots:f-1');
    push(doc([spot('e-1', inMin(45), { goalies: 1, skaters: 0 }), spot('e-2', inMin(120), { goalies: 0, skaters: 3 }, { level: null })]), 1);

    const first = await screen.findByTestId('lobby-spot-e-1');
    expect(first).toHaveTextContent('Game e-1');
    expect(first).toHaveTextContent('Intermediate');
    expect(within(first).getByTestId('lobby-goalies')).toHaveTextContent('1goalie');
    expect(within(first).queryByTestId('lobby-skaters')).not.toBeInTheDocument();
    expect(first).toHaveTextContent(/in 4[45] min/);
    const second = screen.getByTestId('lobby-spot-e-2');
    expect(within(second).getByTestId('lobby-skaters')).toHaveTextContent('3skaters');
    expect(second).toHaveTextContent('All levels');
    expect(screen.getByTestId('lobby-display')).toHaveTextContent('Lakeside Ice');

    // The goalie place is taken: the rink's topic pushes the new document.
    push(doc([spot('e-2', inMin(120), { goalies: 0, skaters: 3 })]), 2);
    expect(screen.queryByTestId('lobby-spot-e-1')).not.toBeInTheDocument();
    push(doc([]), 3);
    expect(screen.getByTestId('lobby-empty')).toHaveTextContent('Every game is full');
  });

  it('says so when the address names no rink', async () => {
    setup({ 'GET /facilities/f-1': apiError(404, 'not_found', 'No such facility') });
    expect(await screen.findByText('No such rink')).toBeInTheDocument();
  });
});
