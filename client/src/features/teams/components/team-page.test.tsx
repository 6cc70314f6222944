import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { makeFacility, makePublicUser } from '../../../testing/fixtures';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeRosterSummary, makeSeasonOption, makeTeamPage } from '../testing';
import { NewRosterPage } from './new-roster-page';
import { EditTeamPage } from './team-form-page';
import { TeamPage } from './team-page';

const TIMEOUT_MS = 20_000;
const empty = { items: [], nextCursor: null };

function setup(routes: Parameters<typeof mockApi>[0], route = '/teams/t-1', path = '/teams/:id', element = <TeamPage />) {
  const server = mockApi({
    'GET /users/u-me': makePublicUser({ id: 'u-me' }),
    'GET /teams/t-1/followers': empty,
    'GET /facilities/f-1': { ...makeFacility({ id: 'f-1', name: 'Lakeside Ice' }), managers: [], seasons: [], viewerRole: null },
    'GET /facilities': { items: [makeFacility({ id: 'f-1', name: 'Lakeside Ice' })], nextCursor: null },
    ...routes,
  });
  const live = fakeLiveSocket();
  const store = createStore();
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>{element}</LiveSocketContext.Provider>,
    {
      store,
      route,
      path,
      extraRoutes: [
        { path: '/teams/:id', element: <p>team page</p> },
        { path: '/rosters/:id', element: <p>roster page</p> },
      ],
    },
  );
  return { server, live, store, user: userEvent.setup() };
}

describe('TeamPage', { timeout: TIMEOUT_MS }, () => {
  it('groups rosters by season and links to the schedule', async () => {
    const { live } = setup({
      'GET /teams/t-1': makeTeamPage({
        facilityId: 'f-1',
        facilityName: 'Lakeside Ice',
        rosters: [
          makeRosterSummary({ id: 'r-2', name: 'Frozen Assets', seasonId: 's-2', seasonName: 'Winter 2027', memberCount: 8, maxMembers: 12, wins: 3, losses: 1, ties: 0, points: 6 }),
          makeRosterSummary({ id: 'r-3', name: 'Frozen Assets B', seasonId: 's-2', seasonName: 'Winter 2027', status: 'DRAFT' }),
          makeRosterSummary({ id: 'r-1', seasonId: 's-1', seasonName: 'Winter 2026', seasonIsActive: false, status: 'ARCHIVED' }),
        ],
      }),
    });
    expect(await screen.findByRole('heading', { name: 'Frozen Assets' })).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith('team:t-1');
    expect(screen.getByTestId('team-schedule-link')).toHaveAttribute('href', '/teams/t-1/schedule');
    const groups = screen.getAllByRole('region');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Winter 2027', 'Winter 2026']);
    expect(within(groups[0]!).getByTestId('roster-row-r-2')).toHaveTextContent('8/12 players');
    expect(within(groups[0]!).getByTestId('roster-row-r-2')).toHaveTextContent('3–1–0 · 6 pts');
    expect(within(groups[0]!).getByTestId('roster-row-r-3')).toHaveTextContent('Draft');
    expect(within(groups[1]!).getByTestId('roster-row-r-1')).toHaveTextContent('Archived');
    expect(screen.getByRole('link', { name: 'Lakeside Ice' })).toHaveAttribute('href', '/facilities/f-1');
    expect(screen.queryByTestId('new-roster')).not.toBeInTheDocument();
  });

  it('re-reads the page when the team topic says it changed', async () => {
    let team = makeTeamPage({ viewerRole: 'OWNER', updatedAt: '2026-11-01T18:00:00.000Z' });
    const { server, store } = setup({ 'GET /teams/t-1': () => team });
    expect(await screen.findByTestId('new-roster')).toHaveAttribute('href', '/teams/t-1/rosters/new');
    team = { ...team, name: 'Frozen Assets II', updatedAt: '2026-11-01T18:05:00.000Z' };
    act(() => store.set(topicAtomFamily('team:t-1'), { seq: 2, data: { updatedAt: '2026-11-01T18:05:00.000Z' } }));
    expect(await screen.findByRole('heading', { name: 'Frozen Assets II' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/teams/t-1').length).toBeGreaterThanOrEqual(2);
  });
});

describe('NewRosterPage', { timeout: TIMEOUT_MS }, () => {
  it('starts a roster in the home rink’s active season and opens it', async () => {
    const { server, user } = setup(
      {
        'GET /teams/t-1': makeTeamPage({ viewerRole: 'MANAGER', facilityId: 'f-1', facilityName: 'Lakeside Ice' }),
        'GET /facilities/f-1/seasons': { items: [makeSeasonOption({ id: 's-2', name: 'Summer 2027' }), makeSeasonOption({ id: 's-1', name: 'Winter 2026', isActive: true })], nextCursor: null },
        'GET /seasons/s-1/division-mappings': [{ id: 'm-1', seasonId: 's-1', facilityDivisionName: 'C2', universalDivisionScale: 'INTERMEDIATE', level: 5, description: null, createdAt: '', updatedAt: '' }],
        'POST /rosters': (c) => reply(201, { ...makeRosterSummary({ id: 'r-9' }), seq: 1, players: [], requests: [], viewer: {}, ...(c.body as object) }),
      },
      '/teams/t-1/rosters/new',
      '/teams/:id/rosters/new',
      <NewRosterPage />,
    );
    const season = await screen.findByTestId('roster-season');
    await waitFor(() => expect(season).toHaveValue('s-1'));
    expect(screen.getByTestId('roster-name')).toHaveValue('Frozen Assets');
    await user.type(screen.getByTestId('roster-max'), '150');
    await user.click(screen.getByTestId('create-roster'));
    expect(screen.getByText('From 1 to 100, or empty for no limit.')).toBeInTheDocument();
    await user.clear(screen.getByTestId('roster-max'));
    await user.type(screen.getByTestId('roster-max'), '18');
    await user.selectOptions(screen.getByTestId('roster-status'), 'ACTIVE');
    await waitFor(() => expect(screen.getByTestId('roster-division')).toBeEnabled());
    await user.selectOptions(screen.getByTestId('roster-division'), 'm-1');
    await user.click(screen.getByTestId('create-roster'));
    expect(await screen.findByText('roster page')).toBeInTheDocument();
    expect(server.callsTo('POST', '/rosters')[0]?.body).toEqual({ teamId: 't-1', seasonId: 's-1', name: 'Frozen Assets', status: 'ACTIVE', maxMembers: 18, divisionMappingId: 'm-1' });
  });

  it('shows the server’s field messages beside the fields', async () => {
    const { user } = setup(
      {
        'GET /teams/t-1': makeTeamPage({ viewerRole: 'OWNER', facilityId: 'f-1' }),
        'GET /facilities/f-1/seasons': { items: [makeSeasonOption({ isActive: true })], nextCursor: null },
        'GET /seasons/s-1/division-mappings': [],
        'POST /rosters': apiError(422, 'validation_failed', 'invalid fields: name', { name: 'is required' }),
      },
      '/teams/t-1/rosters/new',
      '/teams/:id/rosters/new',
      <NewRosterPage />,
    );
    await waitFor(() => expect(screen.getByTestId('roster-season')).toHaveValue('s-1'));
    await user.click(screen.getByTestId('create-roster'));
    expect(await screen.findByText('Is required')).toBeInTheDocument();
    expect(screen.getByTestId('roster-name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('tells a visitor only staff create rosters', async () => {
    setup({ 'GET /teams/t-1': makeTeamPage() }, '/teams/t-1/rosters/new', '/teams/:id/rosters/new', <NewRosterPage />);
    expect(await screen.findByText('Only the team’s staff create rosters')).toBeInTheDocument();
  });
});

describe('EditTeamPage', { timeout: TIMEOUT_MS }, () => {
  it('un-links the home rink with null and saves only what changed', async () => {
    const { server, user } = setup(
      {
        'GET /teams/t-1': makeTeamPage({ viewerRole: 'OWNER', facilityId: 'f-1', facilityName: 'Lakeside Ice', description: 'Old' }),
        'PATCH /teams/t-1': (c) => makeTeamPage({ viewerRole: 'OWNER', ...(c.body as object) }),
      },
      '/teams/t-1/edit',
      '/teams/:id/edit',
      <EditTeamPage />,
    );
    await waitFor(() => expect(screen.getByTestId('team-facility')).toHaveValue('Lakeside Ice'));
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await user.clear(screen.getByTestId('team-description'));
    await user.click(screen.getByTestId('save-team'));
    expect(await screen.findByText('team page')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/teams/t-1')[0]?.body).toEqual({ facilityId: null, description: null });
  });
});
