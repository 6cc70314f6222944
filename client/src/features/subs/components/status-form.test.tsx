import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Status } from '../../../lib/api-types';
import { makeTeam } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeStatus } from '../model/test-fixtures';
import { MyStatuses } from './my-statuses';

// These type and click through a whole card; give a busy box some room.
const TYPING_TIMEOUT_MS = 20_000;

/** Fixture times are years ahead; the form checks ends against the real clock. */
const soon = () => new Date(Date.now() + 3 * 3_600_000).toISOString();

function setup(routes: Parameters<typeof mockApi>[0] = {}, initial: Status[] = []) {
  // A small server that remembers what was posted, edited and taken down.
  let held = [...initial];
  const server = mockApi({
    'GET /me/statuses': () => ({ items: held }),
    'GET /me/teams': { items: [], nextCursor: null },
    'POST /statuses': (call) => {
      const s = makeStatus({ id: 's-new', ...(call.body as object), expiresAt: soon() });
      held = [s, ...held];
      return s;
    },
    'PATCH /statuses/:id': (call, { id }) => {
      held = held.map((s) => (s.id === id ? { ...s, ...(call.body as object) } : s));
      return held.find((s) => s.id === id);
    },
    'DELETE /statuses/:id': (_call, { id }) => {
      held = held.filter((s) => s.id !== id);
      return undefined;
    },
    ...routes,
  });
  renderWithProviders(<MyStatuses />);
  return { server, user: userEvent.setup() };
}

describe('posting a status', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('posts "available to sub" for a goalie until the end of today by default', async () => {
    const { server, user } = setup();
    await user.click(await screen.findByTestId('new-status'));
    expect(screen.getByTestId('status-type-AVAILABLE_TO_SUB')).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByTestId('status-target')).not.toBeInTheDocument();
    expect((screen.getByTestId('status-until') as HTMLInputElement).value).toMatch(/T23:59$/);
    await user.click(screen.getByTestId('pos-GOALIE'));
    expect(screen.getByTestId('pos-ANY')).toHaveAttribute('aria-pressed', 'false');
    await user.type(screen.getByTestId('status-message'), 'Own gear, can be there by 9');
    await user.click(screen.getByTestId('status-submit'));

    expect(await screen.findByTestId('my-status-s-new')).toHaveTextContent('Available to sub');
    const body = server.callsTo('POST', '/statuses')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'AVAILABLE_TO_SUB', entityType: 'USER', positions: ['GOALIE'], message: 'Own gear, can be there by 9' });
    expect(new Date(body.expiresAt as string).getHours()).toBe(23);
    expect(screen.queryByTestId('status-form')).not.toBeInTheDocument();
  });

  it('names a past end beside its field and sends nothing', async () => {
    const { server, user } = setup();
    await user.click(await screen.findByTestId('new-status'));
    const until = screen.getByTestId('status-until');
    await user.clear(until);
    await user.type(until, '2020-01-01T10:00');
    await user.click(screen.getByTestId('status-submit'));
    expect(await screen.findByText('Pick a time in the future.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/statuses')).toHaveLength(0);
  });

  it('offers my teams, and a team gets the team kinds', async () => {
    const { server, user } = setup({ 'GET /me/teams': { items: [makeTeam({ id: 't-1', name: 'Frozen Assets' })], nextCursor: null } });
    await user.click(await screen.findByTestId('new-status'));
    await user.selectOptions(await screen.findByTestId('status-target'), 't-1');
    expect(screen.getByTestId('status-type-LOOKING_FOR_SUBS')).toHaveAttribute('aria-checked', 'true');
    expect(screen.queryByTestId('status-type-AVAILABLE_TO_SUB')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('status-type-RECRUITING'));
    // Recruiting runs for weeks: the end-of-today default goes.
    expect((screen.getByTestId('status-until') as HTMLInputElement).value).toBe('');
    await user.click(screen.getByTestId('status-submit'));
    await screen.findByTestId('my-status-s-new');
    expect(server.callsTo('POST', '/statuses')[0]?.body).toEqual({ type: 'RECRUITING', entityType: 'TEAM', teamId: 't-1', positions: [] });
  });

  it("says to edit the team's one already up when the server answers 409", async () => {
    const { user } = setup({
      'GET /me/teams': { items: [makeTeam({ id: 't-1', name: 'Frozen Assets' })], nextCursor: null },
      'POST /statuses': apiError(409, 'conflict', 'there is already an active status like this; edit it instead'),
    });
    await user.click(await screen.findByTestId('new-status'));
    await user.selectOptions(await screen.findByTestId('status-target'), 't-1');
    await user.click(screen.getByTestId('status-submit'));
    expect(await screen.findByText('Frozen Assets already has a "looking for subs" status up. Edit that one instead.')).toBeInTheDocument();
  });

  it('shows any other refusal as the server words it', async () => {
    const { user } = setup({ 'POST /statuses': apiError(409, 'conflict', 'the event is cancelled or has started') });
    await user.click(await screen.findByTestId('new-status'));
    await user.click(screen.getByTestId('status-submit'));
    expect(await screen.findByText('The event is cancelled or has started')).toBeInTheDocument();
  });
});

describe('my statuses', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('edits one in place and takes one down in two taps', async () => {
    const { server, user } = setup({}, [makeStatus({ id: 's-1', message: 'Free after 8', expiresAt: soon() })]);
    const row = await screen.findByTestId('my-status-s-1');
    expect(row).toHaveTextContent('Free after 8');
    expect(row).toHaveTextContent('Goalie');

    await user.click(screen.getByTestId('edit-status'));
    const message = screen.getByTestId('status-message');
    await user.clear(message);
    await user.type(message, 'Free after 9');
    await user.click(screen.getByTestId('status-submit'));
    expect(await screen.findByText('Free after 9')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/statuses/s-1')[0]?.body).toEqual({ message: 'Free after 9' });

    await user.click(screen.getByTestId('take-down'));
    expect(screen.getByTestId('take-down')).toHaveTextContent('Tap again to take down');
    expect(server.callsTo('DELETE', '/statuses/s-1')).toHaveLength(0);
    await user.click(screen.getByTestId('take-down'));
    expect(await screen.findByTestId('no-statuses')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/statuses/s-1')).toHaveLength(1);
  });
});
