import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeEvent, makePublicUser, makeTeam } from '../../../testing/fixtures';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeFacilityPage, makeSeason } from '../testing';
import { EditFacilityPage } from './facility-form-page';
import { FacilityPage } from './facility-page';
import { NewSeasonPage } from './new-season-page';

const TIMEOUT_MS = 20_000;
const empty = { items: [], nextCursor: null };
const mia = { id: 'u-mia', username: 'mia', firstName: 'Mia', lastName: 'Manning', profileImage: null };
const ada = makePublicUser({ id: 'u-ada', username: 'ada', firstName: 'Ada', lastName: 'Aho' });

function setup(routes: Parameters<typeof mockApi>[0], route = '/facilities/f-1', path = '/facilities/:id', element = <FacilityPage />) {
  const server = mockApi({
    'GET /users/u-me': makePublicUser({ id: 'u-me', username: 'me', firstName: 'Me', lastName: 'Myself' }),
    'GET /facilities/f-1/teams': empty,
    'GET /facilities/f-1/followers': empty,
    'GET /users': { items: [ada], nextCursor: null },
    'GET /events': empty,
    ...routes,
  });
  renderWithProviders(element, {
    route,
    path,
    extraRoutes: [
      { path: '/facilities/:id', element: <FacilityPage /> },
      { path: '/seasons/:id', element: <p>season page</p> },
      { path: '/facilities', element: <p>all facilities</p> },
    ],
  });
  return { server, user: userEvent.setup() };
}

describe('FacilityPage', { timeout: TIMEOUT_MS }, () => {
  it('lists seasons (in the rink’s days) and teams, with no staff tools for a visitor', async () => {
    const season = makeSeason({ startDate: '2026-09-01T04:00:00Z', endDate: '2027-04-01T03:59:59Z' });
    setup({
      'GET /facilities/f-1': makeFacilityPage({ ownerId: 'u-owner', timezone: 'America/Toronto', seasons: [season] }),
      'GET /users/u-owner': makePublicUser({ id: 'u-owner', firstName: 'Olive', lastName: 'Owens' }),
      'GET /facilities/f-1/seasons': { items: [season], nextCursor: null },
      'GET /facilities/f-1/teams': { items: [makeTeam({ id: 't-1', name: 'Frozen Assets', facilityId: 'f-1' })], nextCursor: null },
    });
    const row = await screen.findByTestId('season-row-s-1');
    expect(row).toHaveTextContent('Winter 2026');
    expect(row).toHaveTextContent('Active');
    expect(row).toHaveTextContent('Sep 1, 2026 – Mar 31, 2027');
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/seasons/s-1');
    expect(await screen.findByTestId('facility-team-t-1')).toHaveTextContent('Frozen Assets');
    expect(screen.queryByTestId('edit-facility')).not.toBeInTheDocument();
    expect(screen.queryByTestId('new-season')).not.toBeInTheDocument();
    expect(screen.queryByTestId('staff-add-toggle')).not.toBeInTheDocument();
    expect(await screen.findByTestId('staff-owner')).toHaveTextContent('Olive Owens');
  });

  it('lists the rink\'s upcoming skates, soonest first, each linking to its event', async () => {
    const skate = makeEvent({ id: 'e-9', title: 'Friday stick time', facilityId: 'f-1', hostedByFacility: true, startDate: new Date(Date.now() + 86_400_000).toISOString(), endDate: null });
    const { server } = setup({
      'GET /facilities/f-1': makeFacilityPage({ timezone: 'America/Toronto' }),
      'GET /facilities/f-1/seasons': empty,
      'GET /events': { items: [skate], nextCursor: null },
    });
    const card = await screen.findByTestId('facility-event-e-9');
    expect(card).toHaveTextContent('Friday stick time');
    expect(card).toHaveAttribute('href', '/events/e-9');
    expect(within(screen.getByTestId('facility-upcoming')).getByRole('heading', { name: 'Upcoming skates' })).toBeInTheDocument();
    const [call] = server.callsTo('GET', '/events');
    expect(call?.query.get('facilityId')).toBe('f-1');
    expect(Date.parse(call?.query.get('from') ?? '')).toBeGreaterThan(Date.now() - 60_000);
  });

  it('says so when the rink lists nothing upcoming', async () => {
    setup({ 'GET /facilities/f-1': makeFacilityPage({}), 'GET /facilities/f-1/seasons': empty });
    expect(await within(await screen.findByTestId('facility-upcoming')).findByText('Nothing on the schedule')).toBeInTheDocument();
  });

  it('lets the owner add and remove managers', async () => {
    const { server, user } = setup({
      'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'OWNER', managers: [mia] }),
      'GET /facilities/f-1/seasons': empty,
      'PUT /facilities/f-1/managers/u-ada': () => undefined,
      'DELETE /facilities/f-1/managers/u-mia': () => undefined,
    });
    await user.click(await screen.findByTestId('staff-add-toggle'));
    await user.click(screen.getByTestId('manager-picker'));
    await user.click(await screen.findByRole('option', { name: /Ada Aho/ }));
    await user.click(screen.getByTestId('add-manager'));
    await waitFor(() => expect(server.callsTo('PUT', '/facilities/f-1/managers/u-ada')).toHaveLength(1));
    expect(await screen.findByText('Ada Aho can now help run this facility.')).toBeInTheDocument();

    const remove = screen.getByTestId('remove-manager-mia');
    await user.click(remove);
    expect(remove).toHaveTextContent('Tap again to remove');
    await user.click(remove);
    await waitFor(() => expect(server.callsTo('DELETE', '/facilities/f-1/managers/u-mia')).toHaveLength(1));
  });

  it('shows a refused transfer beside the picker', async () => {
    const { server, user } = setup({
      'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'OWNER' }),
      'GET /facilities/f-1/seasons': empty,
      'POST /facilities/f-1/transfer-ownership': apiError(422, 'validation_failed', 'invalid fields: userId', { userId: 'no such user' }),
    });
    await user.click(await screen.findByTestId('staff-transfer-toggle'));
    await user.click(screen.getByTestId('owner-picker'));
    await user.click(await screen.findByRole('option', { name: /Ada Aho/ }));
    const transfer = screen.getByTestId('transfer-ownership');
    await user.click(transfer);
    await user.click(transfer);
    await waitFor(() => expect(server.callsTo('POST', '/facilities/f-1/transfer-ownership')[0]?.body).toEqual({ userId: 'u-ada' }));
    expect(await screen.findByText('No such user')).toBeInTheDocument();
    expect(screen.getByTestId('owner-picker')).toHaveAttribute('aria-invalid', 'true');
  });

  it('lets a manager step down but not manage others', async () => {
    const { server, user } = setup({
      'GET /facilities/f-1': makeFacilityPage({ ownerId: 'u-owner', viewerRole: 'MANAGER', managers: [{ ...mia, id: 'u-me', username: 'me' }] }),
      'GET /users/u-owner': makePublicUser({ id: 'u-owner' }),
      'GET /facilities/f-1/seasons': empty,
      'DELETE /facilities/f-1/managers/u-me': () => undefined,
    });
    expect(await screen.findByTestId('edit-facility')).toBeInTheDocument();
    expect(screen.getByTestId('new-season')).toBeInTheDocument();
    expect(screen.queryByTestId('staff-add-toggle')).not.toBeInTheDocument();
    const stepDown = screen.getByTestId('remove-manager-me');
    expect(stepDown).toHaveTextContent('Step down');
    await user.click(stepDown);
    await user.click(stepDown);
    await waitFor(() => expect(server.callsTo('DELETE', '/facilities/f-1/managers/u-me')).toHaveLength(1));
  });
});

describe('EditFacilityPage', { timeout: TIMEOUT_MS }, () => {
  it('sends only the changed fields and clears an emptied one with null', async () => {
    const { server, user } = setup(
      {
        'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'OWNER', phoneNumber: '555-0100', description: 'Old' }),
        'GET /facilities/f-1/seasons': empty,
        'PATCH /facilities/f-1': (c) => makeFacilityPage({ viewerRole: 'OWNER', ...(c.body as object) }),
      },
      '/facilities/f-1/edit',
      '/facilities/:id/edit',
      <EditFacilityPage />,
    );
    const name = await screen.findByTestId('facility-name');
    await user.clear(name);
    await user.type(name, 'Lakeside Ice Arena');
    await user.clear(screen.getByTestId('facility-phone'));
    await user.click(screen.getByTestId('save-facility'));
    await waitFor(() => expect(server.callsTo('PATCH', '/facilities/f-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/facilities/f-1')[0]?.body).toEqual({ name: 'Lakeside Ice Arena', phoneNumber: null });
  });

  it('changes the rink\'s currency, which its ice bills are in', async () => {
    const { server, user } = setup(
      {
        'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'OWNER', currency: 'USD' }),
        'GET /facilities/f-1/seasons': empty,
        'PATCH /facilities/f-1': (c) => makeFacilityPage({ viewerRole: 'OWNER', ...(c.body as object) }),
      },
      '/facilities/f-1/edit',
      '/facilities/:id/edit',
      <EditFacilityPage />,
    );
    const currency = await screen.findByTestId('facility-currency');
    expect(currency).toHaveValue('USD');
    expect(screen.getByRole('option', { name: /^CAD/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /^NZD/ })).toBeInTheDocument();
    // An existing rink has a currency: no "set from the time zone" here.
    expect(screen.queryByRole('option', { name: 'Set from the time zone' })).not.toBeInTheDocument();
    await user.selectOptions(currency, 'CAD');
    await user.click(screen.getByTestId('save-facility'));
    await waitFor(() => expect(server.callsTo('PATCH', '/facilities/f-1')[0]?.body).toEqual({ currency: 'CAD' }));
  });

  it('shows the server’s messages beside the fields', async () => {
    const { user } = setup(
      {
        'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'MANAGER' }),
        'PATCH /facilities/f-1': apiError(422, 'validation_failed', 'invalid fields: email', { email: 'must be an email address' }),
      },
      '/facilities/f-1/edit',
      '/facilities/:id/edit',
      <EditFacilityPage />,
    );
    await user.type(await screen.findByTestId('facility-email'), 'desk@rink.example');
    await user.click(screen.getByTestId('save-facility'));
    expect(await screen.findByText('Must be an email address')).toBeInTheDocument();
    expect(screen.getByTestId('facility-email')).toHaveAttribute('aria-invalid', 'true');
    // Only the owner may delete.
    expect(screen.queryByTestId('delete-facility')).not.toBeInTheDocument();
  });

  it('lets the owner delete after a second tap', async () => {
    const { server, user } = setup(
      { 'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'OWNER' }), 'DELETE /facilities/f-1': () => undefined },
      '/facilities/f-1/edit',
      '/facilities/:id/edit',
      <EditFacilityPage />,
    );
    const del = await screen.findByTestId('delete-facility');
    await user.click(del);
    await user.click(del);
    expect(await screen.findByText('all facilities')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/facilities/f-1')).toHaveLength(1);
  });
});

describe('NewSeasonPage', { timeout: TIMEOUT_MS }, () => {
  it('says a season ending 9999-12-31 is out of range, in words, without asking the server', async () => {
    const { server, user } = setup(
      { 'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'MANAGER', timezone: 'America/Winnipeg' }) },
      '/facilities/f-1/seasons/new',
      '/facilities/:id/seasons/new',
      <NewSeasonPage />,
    );
    await user.type(await screen.findByTestId('season-name'), 'Forever');
    await user.type(screen.getByTestId('season-start'), '2027-04-01');
    await user.type(screen.getByTestId('season-end'), '9999-12-31');
    await user.click(screen.getByTestId('save-season'));
    expect(await screen.findByText('Pick a day between 1900 and 2200.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/facilities/f-1/seasons')).toHaveLength(0);
  });

  it('creates a season with the rink’s days and opens it', async () => {
    const { server, user } = setup(
      {
        'GET /facilities/f-1': makeFacilityPage({ viewerRole: 'MANAGER', timezone: 'America/Winnipeg' }),
        'POST /facilities/f-1/seasons': (c) => reply(201, makeSeason({ id: 's-9', ...(c.body as object) })),
      },
      '/facilities/f-1/seasons/new',
      '/facilities/:id/seasons/new',
      <NewSeasonPage />,
    );
    await user.click(await screen.findByTestId('save-season'));
    expect(screen.getByText('Give the season a name.')).toBeInTheDocument();
    expect(screen.getByText('Pick the first day.')).toBeInTheDocument();
    await user.type(screen.getByTestId('season-name'), 'Spring 2027');
    await user.type(screen.getByTestId('season-start'), '2027-04-01');
    await user.type(screen.getByTestId('season-end'), '2027-06-30');
    await user.click(screen.getByTestId('season-active'));
    await user.click(screen.getByTestId('save-season'));
    expect(await screen.findByText('season page')).toBeInTheDocument();
    expect(server.callsTo('POST', '/facilities/f-1/seasons')[0]?.body).toEqual({
      name: 'Spring 2027',
      startDate: '2027-04-01T05:00:00Z',
      endDate: '2027-07-01T04:59:59Z',
      isActive: true,
      syncUrl: null,
      syncEnabled: false,
      // The game clock's defaults unless changed (docs/game-night.md › Settings).
      periodMinutes: 20,
      overtimeMinutes: 5,
      clockMode: 'STOP',
    });
  });
});
