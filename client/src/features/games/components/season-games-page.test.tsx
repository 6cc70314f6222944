import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import type { RosterSummary, SeasonDetail } from '../../../lib/api-types';
import { connectionStateAtom, LiveSocketContext, topicAtomFamily } from '../../../lib/ws';
import { fakeLiveSocket } from '../../../testing/fake-live-socket';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeEntry, makeGame, makeStanding } from '../model/test-fixtures';
import { SeasonGamesPage } from './season-games-page';

const TYPING_TIMEOUT_MS = 20_000;

const season = (viewerCanEdit: boolean): SeasonDetail => ({
  id: 's-1',
  facilityId: 'f-1',
  facilityName: 'Lakeside Ice',
  name: 'Fall League',
  startDate: '2026-09-01T00:00:00Z',
  endDate: '2099-03-01T00:00:00Z',
  isActive: true,
  syncUrl: null,
  syncEnabled: false,
  lastSyncAt: null,
  nextSyncAt: null,
  lastSync: null,
  createdAt: '',
  updatedAt: '',
  viewerCanEdit,
});

const roster = (id: string, name: string): RosterSummary => ({
  id,
  name,
  description: null,
  teamId: `t-${id}`,
  teamName: name,
  seasonId: 's-1',
  seasonName: 'Fall League',
  seasonStartDate: '2026-09-01T00:00:00Z',
  seasonIsActive: true,
  facilityId: 'f-1',
  facilityName: 'Lakeside Ice',
  status: 'ACTIVE',
  divisionMappingId: null,
  division: null,
  maxMembers: null,
  memberCount: 10,
  wins: 0,
  losses: 0,
  ties: 0,
  points: 0,
  createdAt: '',
  updatedAt: '',
});

const ROSTERS = [roster('r-home', 'Blades'), roster('r-away', 'Ice Hawks'), roster('r-3', 'Polar Caps')];
const future = new Date(Date.now() + 3 * 86_400_000).toISOString();

function setup(viewerCanEdit: boolean, extra: Parameters<typeof mockApi>[0] = {}) {
  const server = mockApi({
    'GET /seasons/s-1': season(viewerCanEdit),
    'GET /seasons/s-1/schedule': [makeEntry({ id: 'g-1', scheduledAt: future }), makeEntry({ id: 'g-2', status: 'FINAL', homeScore: 4, awayScore: 2, scheduledAt: '2026-10-01T19:00:00Z' })],
    'GET /seasons/s-1/standings': [makeStanding('r-home', 'Blades', { points: 2, wins: 1, gamesPlayed: 1, goalsFor: 4, goalsAgainst: 2 }), makeStanding('r-3', 'Polar Caps'), makeStanding('r-away', 'Ice Hawks', { losses: 1, gamesPlayed: 1, goalsFor: 2, goalsAgainst: 4 })],
    'GET /seasons/s-1/leaders': [{ userId: 'u-a', displayName: 'Alice Ames', rosterId: 'r-home', rosterName: 'Blades', jerseyNumber: 9, goals: 3, assists: 1, points: 4, penaltyMinutes: 0, gamesPlayed: 1 }],
    'GET /seasons/s-1/rosters': { items: ROSTERS, nextCursor: null },
    'GET /rosters/:id': (_c, p) => ({ ...ROSTERS.find((r) => r.id === p.id), seq: 1, players: [], requests: [], viewer: { isMember: false, canEdit: false, canManagePlayers: false, canDecideRequests: false, pendingRequestId: null } }),
    ...extra,
  });
  const live = fakeLiveSocket();
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  renderWithProviders(
    <LiveSocketContext.Provider value={live.socket}>
      <SeasonGamesPage />
    </LiveSocketContext.Provider>,
    { store, route: '/seasons/s-1/games', path: '/seasons/:id/games' },
  );
  return { server, live, store, user: userEvent.setup() };
}

describe('SeasonGamesPage', { timeout: TYPING_TIMEOUT_MS }, () => {
  it('shows standings in the server order, the schedule, the leaders, and follows the season topic', async () => {
    const { live, store, server } = setup(false);
    expect(await screen.findByRole('heading', { name: 'Fall League' })).toBeInTheDocument();
    expect(live.subscribe).toHaveBeenCalledWith('season:s-1');
    const names = () => within(screen.getByTestId('standings')).getAllByRole('rowheader').map((r) => r.textContent);
    await waitFor(() => expect(names()).toEqual(['Blades', 'Polar Caps', 'Ice Hawks']));
    expect(screen.getByTestId('standing-r-home')).toHaveTextContent('+2');
    expect(await screen.findByTestId('leader-u-a')).toHaveTextContent('#9Alice Ames');
    // Upcoming first; results on their tab.
    expect(await screen.findByTestId('schedule-g-1')).toBeInTheDocument();
    expect(screen.queryByTestId('schedule-g-2')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('filter-results'));
    expect(screen.getByTestId('schedule-g-2-home')).toHaveTextContent('4');
    // Not staff: no scheduling, no editing.
    expect(screen.queryByTestId('open-schedule-form')).not.toBeInTheDocument();

    const leadersCalls = server.callsTo('GET', '/seasons/s-1/leaders').length;
    act(() =>
      store.set(topicAtomFamily('season:s-1'), {
        seq: 7,
        data: {
          seasonId: 's-1',
          seq: 7,
          standings: [makeStanding('r-away', 'Ice Hawks', { points: 2 }), makeStanding('r-home', 'Blades', { points: 2 }), makeStanding('r-3', 'Polar Caps')],
          schedule: [makeEntry({ id: 'g-2', status: 'FINAL', homeScore: 4, awayScore: 2, scheduledAt: '2026-10-01T19:00:00Z' }), makeEntry({ id: 'g-3', status: 'FINAL', homeScore: 1, awayScore: 5, scheduledAt: '2026-10-02T19:00:00Z' })],
        },
      }),
    );
    expect(names()).toEqual(['Ice Hawks', 'Blades', 'Polar Caps']);
    expect(screen.getByTestId('schedule-g-3-away')).toHaveTextContent('5');
    await waitFor(() => expect(server.callsTo('GET', '/seasons/s-1/leaders').length).toBeGreaterThan(leadersCalls));
  });

  it('lets the facility staff schedule a game and edit one that has not started', async () => {
    const created = makeGame({ id: 'g-9', status: 'SCHEDULED', log: [], period: null });
    const { server, user } = setup(true, {
      'POST /games': created,
      'PATCH /games/:id': (call) => ({ ...makeGame({ status: 'SCHEDULED' }), ...(call.body as object) }),
    });
    await user.click(await screen.findByTestId('open-schedule-form'));
    await user.click(screen.getByTestId('schedule-submit'));
    expect(screen.getByText('Pick the home roster.')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('schedule-home'), 'r-home');
    await user.selectOptions(screen.getByTestId('schedule-away'), 'r-3');
    await user.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(server.callsTo('POST', '/games')).toHaveLength(1));
    const body = server.callsTo('POST', '/games')[0]?.body as Record<string, string>;
    expect(body).toMatchObject({ seasonId: 's-1', homeRosterId: 'r-home', awayRosterId: 'r-3' });
    expect(new Date(body.scheduledAt ?? '').getTime()).toBeGreaterThan(Date.now());
    expect(await screen.findByText('Blades vs Ice Hawks is on the schedule.')).toBeInTheDocument();

    await user.click(screen.getByTestId('edit-game-g-1'));
    await user.selectOptions(screen.getByTestId('edit-game-status'), 'CANCELLED');
    await user.click(screen.getByTestId('edit-game-save'));
    expect(server.callsTo('PATCH', '/games/g-1')).toHaveLength(0);
    await user.click(screen.getByTestId('edit-game-save'));
    await waitFor(() => expect(server.callsTo('PATCH', '/games/g-1')[0]?.body).toEqual({ status: 'CANCELLED' }));
  });

  it('lets a team manager schedule only games of their own rosters', async () => {
    const { user } = setup(false, {
      'GET /rosters/:id': (_c, p) => ({
        ...ROSTERS.find((r) => r.id === p.id),
        seq: 1,
        players: [],
        requests: [],
        viewer: { isMember: false, canEdit: p.id === 'r-3', canManagePlayers: p.id === 'r-3', canDecideRequests: false, pendingRequestId: null },
      }),
    });
    await user.click(await screen.findByTestId('open-schedule-form'));
    await user.selectOptions(screen.getByTestId('schedule-home'), 'r-home');
    await user.selectOptions(screen.getByTestId('schedule-away'), 'r-away');
    await user.click(screen.getByTestId('schedule-submit'));
    expect(screen.getByText('One side has to be a roster of a team you run.')).toBeInTheDocument();
    // Games of other teams cannot be edited.
    expect(screen.queryByTestId('edit-game-g-1')).not.toBeInTheDocument();
  });
});
