import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeMatchEvent, makeStatus } from '../model/test-fixtures';
import { Board } from './board';

const goalie = makeStatus({ id: 's-g', message: 'Own gear', level: 'ADVANCED' });
const call = makeStatus({
  id: 's-call',
  type: 'LOOKING_FOR_SUBS',
  userId: 'u-cap',
  eventId: 'e-1',
  positions: ['GOALIE'],
  level: null,
  user: { id: 'u-cap', username: 'cara', firstName: 'Cara', lastName: 'Captain', profileImage: null },
  event: makeMatchEvent({ title: 'Late skate', open: { skaters: null, goalies: 1 } }),
});
const team = makeStatus({
  id: 's-team',
  type: 'RECRUITING',
  entityType: 'TEAM',
  teamId: 't-1',
  positions: ['LEFT_DEFENSE', 'RIGHT_DEFENSE'],
  user: null,
  team: { id: 't-1', name: 'Frozen Assets', logoUrl: null, facilityId: 'f-1', facilityName: 'Lakeside Ice' },
});

function setup() {
  const server = mockApi({
    'GET /statuses': (c) => (c.query.get('cursor') === 'next' ? { items: [team], nextCursor: null } : { items: [goalie, call], nextCursor: 'next' }),
    'GET /divisions/scale': [{ value: 'ADVANCED', name: 'Advanced', level: 6, description: 'Fast, structured play.' }],
    'GET /facilities': { items: [], nextCursor: null },
  });
  renderWithProviders(<Board />, { route: '/subs' });
  return { server, user: userEvent.setup() };
}

describe('the board', () => {
  it('shows each entry with who, level, positions, message, expiry and the event it is for, and pages on', async () => {
    const { server, user } = setup();
    const g = await screen.findByTestId('status-s-g');
    expect(g).toHaveTextContent('Gary Goalie');
    expect(g).toHaveTextContent('Available to sub');
    expect(g).toHaveTextContent('Advanced');
    expect(g).toHaveTextContent('Goalie');
    expect(g).toHaveTextContent('Own gear');
    expect(g).toHaveTextContent(/until /);
    const c = screen.getByTestId('status-s-call');
    expect(within(c).getByText('Late skate')).toHaveAttribute('href', '/events/e-1');
    expect(within(c).getByTestId('open-spots')).toHaveTextContent('1 goalie spot open');
    expect(c).toHaveTextContent('Lakeside Ice');

    await user.click(screen.getByTestId('load-more'));
    const t = await screen.findByTestId('status-s-team');
    expect(t).toHaveTextContent('Frozen Assets');
    expect(t).toHaveTextContent('Left defense');
    expect(server.callsTo('GET', '/statuses').at(-1)?.query.get('cursor')).toBe('next');
  });

  it('filters by kind, position, level and window', async () => {
    const { server, user } = setup();
    await screen.findByTestId('status-s-g');
    const last = () => server.callsTo('GET', '/statuses').at(-1)?.query;

    await user.click(screen.getByTestId('board-type-AVAILABLE_TO_SUB'));
    await waitFor(() => expect(last()?.get('type')).toBe('AVAILABLE_TO_SUB'));
    expect(screen.getByTestId('board-type-AVAILABLE_TO_SUB')).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByTestId('board-more-filters'));
    await user.selectOptions(screen.getByTestId('board-position'), 'GOALIE');
    await waitFor(() => expect(last()?.get('position')).toBe('GOALIE'));
    await user.selectOptions(screen.getByTestId('board-division'), 'ADVANCED');
    await waitFor(() => expect(last()?.get('division')).toBe('ADVANCED'));
    expect(screen.getByText('This level and one step either side.')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('board-when'), 'today');
    await waitFor(() => expect(last()?.get('from')).toBeTruthy());
    expect(last()?.get('type')).toBe('AVAILABLE_TO_SUB');
    expect(last()?.get('to')).toBeTruthy();

    await user.click(screen.getByTestId('board-type-all'));
    await waitFor(() => expect(last()?.get('type')).toBeNull());
  });
});
