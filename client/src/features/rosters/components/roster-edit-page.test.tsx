import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makePlayer, makeRoster, makeRosterViewer } from '../testing';
import { RosterEditPage } from './roster-edit-page';

const TIMEOUT_MS = 20_000;
const mapping = { id: 'm-1', seasonId: 's-1', facilityDivisionName: 'C2', universalDivisionScale: 'INTERMEDIATE', level: 5, description: null, createdAt: '', updatedAt: '' };

function setup(routes: Parameters<typeof mockApi>[0]) {
  const server = mockApi({ 'GET /seasons/s-1/division-mappings': [mapping], ...routes });
  renderWithProviders(<RosterEditPage />, { route: '/rosters/r-1/edit', path: '/rosters/:id/edit', extraRoutes: [{ path: '/rosters/:id', element: <p>roster page</p> }] });
  return { server, user: userEvent.setup() };
}

const editable = () =>
  makeRoster({ viewer: makeRosterViewer({ canEdit: true }), maxMembers: 20, memberCount: 2, players: [makePlayer({ userId: 'u-a' }), makePlayer({ userId: 'u-b' })] });

describe('RosterEditPage', { timeout: TIMEOUT_MS }, () => {
  it('saves the changed fields and places the roster in a division', async () => {
    const { server, user } = setup({ 'GET /rosters/r-1': editable(), 'PATCH /rosters/r-1': (c) => ({ ...editable(), ...(c.body as object) }) });
    const max = await screen.findByTestId('roster-max');
    await user.clear(max);
    await waitFor(() => expect(screen.getByTestId('roster-division')).toBeEnabled());
    await user.selectOptions(screen.getByTestId('roster-division'), 'm-1');
    await user.click(screen.getByTestId('save-roster'));
    expect(await screen.findByText('roster page')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/rosters/r-1')[0]?.body).toEqual({ maxMembers: null, divisionMappingId: 'm-1' });
  });

  it('will not lower the limit below the players on it, and shows the server’s refusal beside the field', async () => {
    const { server, user } = setup({
      'GET /rosters/r-1': editable(),
      'PATCH /rosters/r-1': apiError(409, 'max_members_below_roster', '3 players are on the roster; take some off before lowering maxMembers to 2'),
    });
    const max = await screen.findByTestId('roster-max');
    await user.clear(max);
    await user.type(max, '1');
    await user.click(screen.getByTestId('save-roster'));
    expect(screen.getByText('2 players are on it already; take some off first.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    // Someone joined meanwhile: the server has the last word.
    await user.clear(max);
    await user.type(max, '2');
    await user.click(screen.getByTestId('save-roster'));
    expect(await screen.findByText('3 players are on the roster; take some off before lowering maxMembers to 2')).toBeInTheDocument();
    expect(max).toHaveAttribute('aria-invalid', 'true');
  });

  it('is closed to people who may not edit, and to archived rosters', async () => {
    setup({ 'GET /rosters/r-1': makeRoster({ status: 'ARCHIVED', viewer: makeRosterViewer({ canEdit: true }) }) });
    expect(await screen.findByText('This roster is archived')).toBeInTheDocument();
    expect(screen.queryByTestId('roster-edit-form')).not.toBeInTheDocument();
  });
});
