import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeFacility } from '../../../testing/fixtures';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeMapping, makeSeasonDetail, SCALE } from '../testing';
import { SeasonEditPage } from './season-edit-page';
import { SeasonPage } from './season-page';

const TIMEOUT_MS = 20_000;
const empty = { items: [], nextCursor: null };

function setup(routes: Parameters<typeof mockApi>[0], route = '/seasons/s-1', path = '/seasons/:id', element = <SeasonPage />) {
  const server = mockApi({
    'GET /facilities/f-1': { ...makeFacility({ timezone: 'America/Toronto' }), managers: [], seasons: [], viewerRole: null },
    'GET /divisions/scale': SCALE,
    'GET /seasons/s-1/rosters': empty,
    ...routes,
  });
  renderWithProviders(element, { route, path, extraRoutes: [{ path: '/seasons/:id', element: <SeasonPage /> }] });
  return { server, user: userEvent.setup() };
}

describe('SeasonPage', { timeout: TIMEOUT_MS }, () => {
  it('shows the rink’s days, the rosters and the links to standings and the arena display', async () => {
    setup({
      'GET /seasons/s-1': makeSeasonDetail(),
      'GET /seasons/s-1/rosters': {
        items: [{ id: 'r-1', name: 'Frozen Assets', description: null, teamId: 't-1', teamName: 'Frozen Assets', seasonId: 's-1', seasonName: 'Winter 2026', seasonStartDate: '', seasonIsActive: true, facilityId: 'f-1', facilityName: 'Lakeside Ice', status: 'ACTIVE', divisionMappingId: null, division: null, maxMembers: 20, memberCount: 12, wins: 5, losses: 2, ties: 1, points: 11, createdAt: '', updatedAt: '' }],
        nextCursor: null,
      },
    });
    expect(await screen.findByRole('heading', { name: 'Winter 2026' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('season-dates')).toHaveTextContent('Sep 1, 2026 – Mar 31, 2027'));
    expect(screen.getByTestId('season-games-link')).toHaveAttribute('href', '/seasons/s-1/games');
    expect(screen.getByTestId('season-display-link')).toHaveAttribute('href', '/display/season/s-1');
    const row = await screen.findByTestId('roster-row-r-1');
    expect(row).toHaveTextContent('12/20 players');
    expect(row).toHaveTextContent('5–2–1 · 11 pts');
    expect(screen.queryByTestId('add-mapping')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sync-now')).not.toBeInTheDocument();
    expect(screen.getByTestId('sync-status')).toHaveTextContent('Schedule sync is off');
  });

  it('lets staff add a division and shows a taken name beside the field', async () => {
    let answer: unknown = apiError(409, 'division_name_taken', 'this season already has a division of that name');
    const { server, user } = setup({
      'GET /seasons/s-1': makeSeasonDetail({ viewerCanEdit: true, divisionMappings: [makeMapping()] }),
      'POST /seasons/s-1/division-mappings': () => answer,
    });
    expect(await screen.findByTestId('mapping-C2')).toHaveTextContent('L5 · Intermediate');
    await screen.findByText('What do the levels mean?');
    await user.click(screen.getByTestId('add-mapping'));
    const form = screen.getByTestId('new-mapping-form');
    await user.click(within(form).getByTestId('save-mapping'));
    expect(within(form).getByText('Name the division as the rink does.')).toBeInTheDocument();
    expect(within(form).getByText('Pick its level on the scale.')).toBeInTheDocument();

    await user.type(within(form).getByTestId('mapping-name'), 'C2');
    await user.selectOptions(within(form).getByTestId('mapping-level'), 'NOVICE');
    expect(within(form).getByText('Knows the rules.')).toBeInTheDocument();
    await user.click(within(form).getByTestId('save-mapping'));
    expect(await within(form).findByText('this season already has a division of that name')).toBeInTheDocument();
    expect(within(form).getByTestId('mapping-name')).toHaveAttribute('aria-invalid', 'true');

    answer = reply(201, makeMapping({ id: 'm-2', facilityDivisionName: 'Bronze', universalDivisionScale: 'NOVICE', level: 3 }));
    await user.clear(within(form).getByTestId('mapping-name'));
    await user.type(within(form).getByTestId('mapping-name'), 'Bronze');
    await user.click(within(form).getByTestId('save-mapping'));
    await waitFor(() => expect(screen.queryByTestId('new-mapping-form')).not.toBeInTheDocument());
    expect(server.callsTo('POST', '/seasons/s-1/division-mappings')[1]?.body).toEqual({ facilityDivisionName: 'Bronze', universalDivisionScale: 'NOVICE', description: null });
  });

  it('edits a division with only what changed, and deletes one after a second tap', async () => {
    const { server, user } = setup({
      'GET /seasons/s-1': makeSeasonDetail({ viewerCanEdit: true, divisionMappings: [makeMapping()] }),
      'PATCH /division-mappings/m-1': (c) => makeMapping({ ...(c.body as object) }),
      'DELETE /division-mappings/m-1': () => undefined,
    });
    const row = await screen.findByTestId('mapping-C2');
    await user.click(within(row).getByTestId('edit-mapping'));
    const form = screen.getByTestId('edit-mapping-form');
    await user.selectOptions(within(form).getByTestId('mapping-level'), 'ADVANCED');
    await user.click(within(form).getByTestId('save-mapping'));
    await waitFor(() => expect(server.callsTo('PATCH', '/division-mappings/m-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/division-mappings/m-1')[0]?.body).toEqual({ universalDivisionScale: 'ADVANCED' });

    const del = within(await screen.findByTestId('mapping-C2')).getByTestId('delete-mapping');
    await user.click(del);
    await user.click(del);
    await waitFor(() => expect(server.callsTo('DELETE', '/division-mappings/m-1')).toHaveLength(1));
  });
});

describe('SeasonEditPage', { timeout: TIMEOUT_MS }, () => {
  it('sends only the changed fields, with days as the rink’s midnights', async () => {
    const { server, user } = setup(
      {
        'GET /seasons/s-1': makeSeasonDetail({ viewerCanEdit: true }),
        'PATCH /seasons/s-1': (c) => makeSeasonDetail({ viewerCanEdit: true, ...(c.body as object) }),
      },
      '/seasons/s-1/edit',
      '/seasons/:id/edit',
      <SeasonEditPage />,
    );
    const start = await screen.findByTestId('season-start');
    expect(start).toHaveValue('2026-09-01');
    expect(screen.getByTestId('season-end')).toHaveValue('2027-03-31');
    await user.clear(start);
    await user.type(start, '2026-09-15');
    await user.click(screen.getByTestId('season-active'));
    await user.click(screen.getByTestId('save-season'));
    await waitFor(() => expect(server.callsTo('PATCH', '/seasons/s-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/seasons/s-1')[0]?.body).toEqual({ startDate: '2026-09-15T04:00:00Z', isActive: false });
  });

  it('shows why the server refused the schedule URL beside the field', async () => {
    const { server, user } = setup(
      {
        'GET /seasons/s-1': makeSeasonDetail({ viewerCanEdit: true }),
        'PATCH /seasons/s-1': apiError(422, 'validation_failed', 'invalid fields: syncUrl', { syncUrl: '`127.0.0.1` is a loopback address' }),
      },
      '/seasons/s-1/edit',
      '/seasons/:id/edit',
      <SeasonEditPage />,
    );
    const url = await screen.findByTestId('season-sync-url');
    await user.type(url, 'http://127.0.0.1:8000/league.csv');
    await user.click(screen.getByTestId('season-sync-enabled'));
    await user.click(screen.getByTestId('save-season'));
    expect(await screen.findByText('`127.0.0.1` is a loopback address')).toBeInTheDocument();
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(server.callsTo('PATCH', '/seasons/s-1')[0]?.body).toEqual({ syncUrl: 'http://127.0.0.1:8000/league.csv', syncEnabled: true });
    // Still on the form, to fix it.
    expect(screen.getByTestId('season-form')).toBeInTheDocument();
  });

  it('checks the days before sending', async () => {
    const { server, user } = setup({ 'GET /seasons/s-1': makeSeasonDetail({ viewerCanEdit: true }) }, '/seasons/s-1/edit', '/seasons/:id/edit', <SeasonEditPage />);
    const end = await screen.findByTestId('season-end');
    await user.clear(end);
    await user.type(end, '2026-08-01');
    await user.click(screen.getByTestId('save-season'));
    expect(await screen.findByText('The last day can’t be before the first.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
  });
});
