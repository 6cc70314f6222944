import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeFacility } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { SeasonDetail } from '../../../lib/api-types';
import { makeExternalRoster, makeFailedRun, makeReport, makeSeasonDetail, SCALE } from '../testing';
import { SeasonPage } from './season-page';

const TIMEOUT_MS = 20_000;
/** 13:48 in Toronto, where the rink is. */
const NOW = new Date('2026-11-24T18:48:00Z');
const TWELVE_MIN_AGO = '2026-11-24T18:36:00Z';
/** 14:00 in Toronto. */
const AT_TWO = '2026-11-24T19:00:00Z';

const TEAMS = [
  makeExternalRoster({ id: 'x-1', name: 'Frozen Assets', isMatched: true, teamId: 't-1', teamName: 'Frozen Assets', matchSource: 'AUTO' }),
  makeExternalRoster({ id: 'x-2', name: 'Blue Liners', isMatched: true, teamId: 't-2', teamName: 'Blue Liners', matchSource: 'AUTO' }),
  makeExternalRoster({ id: 'x-3', name: 'Polar Bears' }),
];

function setup(season: SeasonDetail, routes: Parameters<typeof mockApi>[0] = {}) {
  const server = mockApi({
    'GET /seasons/s-1': season,
    'GET /facilities/f-1': { ...makeFacility({ timezone: 'America/Toronto' }), managers: [], seasons: [], viewerRole: null },
    'GET /divisions/scale': SCALE,
    'GET /seasons/s-1/rosters': { items: [], nextCursor: null },
    'GET /seasons/s-1/external-rosters': TEAMS,
    'GET /seasons/s-1/external-games': [],
    ...routes,
  });
  renderWithProviders(<SeasonPage />, { route: '/seasons/s-1', path: '/seasons/:id' });
  return { server, user: userEvent.setup() };
}

const status = () => screen.getByTestId('sync-status');

beforeEach(() => {
  // Only the clock: the queries' and user-event's timers stay real.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('SyncCard', { timeout: TIMEOUT_MS }, () => {
  it('says sync is off when it is, and nothing about a source', async () => {
    setup(makeSeasonDetail());
    await screen.findByTestId('sync-card');
    expect(status()).toHaveTextContent('Schedule sync is off');
    expect(screen.getByTestId('sync-card')).toHaveTextContent('Games of this season are entered by the rink’s staff.');
    expect(screen.queryByTestId('league-teams-link')).not.toBeInTheDocument();
    expect(screen.queryByTestId('league-games')).not.toBeInTheDocument();
  });

  it('says "not synced yet" with the first sync’s time at the rink', async () => {
    setup(makeSeasonDetail({ syncEnabled: true, nextSyncAt: AT_TWO }));
    await screen.findByTestId('sync-card');
    await waitFor(() => expect(status()).toHaveTextContent(/^Not synced yet · first sync at 2:00\sPM$/u));
  });

  it('tells everyone where the games come from, when they were read and will be next, and how many teams are matched', async () => {
    const { server } = setup(
      makeSeasonDetail({
        syncEnabled: true,
        lastSyncAt: TWELVE_MIN_AGO,
        nextSyncAt: AT_TWO,
        // The newest run failed: only staff hear about it.
        lastSync: { ok: false, finishedAt: TWELVE_MIN_AGO, games: { created: 0, updated: 0, unchanged: 0, removed: 0 }, error: { code: 'fetch_failed', message: 'the server answered 503' } },
      }),
    );
    await screen.findByTestId('sync-card');
    await waitFor(() => expect(status()).toHaveTextContent(/^Synced from the league’s schedule · last synced 12 minutes ago · next sync at 2:00\sPM$/u));
    const link = await screen.findByTestId('league-teams-link');
    expect(link).toHaveTextContent('League teams · 2 of 3 matched');
    expect(link).toHaveAttribute('href', '/seasons/s-1/teams');
    expect(screen.queryByTestId('sync-failure')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sync-now')).not.toBeInTheDocument();
    expect(screen.queryByTestId('sync-source')).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/seasons/s-1/sync-runs')).toHaveLength(0);
  });

  it('says automatic sync is off after a one-off sync', async () => {
    setup(makeSeasonDetail({ lastSyncAt: TWELVE_MIN_AGO, lastSync: { ok: true, finishedAt: TWELVE_MIN_AGO, games: { created: 40, updated: 0, unchanged: 0, removed: 0 }, error: null } }));
    await screen.findByTestId('sync-card');
    await waitFor(() => expect(status()).toHaveTextContent('Synced from the league’s schedule · last synced 12 minutes ago · automatic sync is off'));
  });

  it('shows staff the URL with a link to edit it, and warns of the last failure', async () => {
    setup(
      makeSeasonDetail({
        viewerCanEdit: true,
        syncUrl: 'https://league.example.com/schedule.csv?token=abc',
        syncEnabled: true,
        nextSyncAt: AT_TWO,
        lastSync: { ok: false, finishedAt: TWELVE_MIN_AGO, games: { created: 0, updated: 0, unchanged: 0, removed: 0 }, error: { code: 'not_a_schedule', message: 'the page is HTML, not a schedule' } },
      }),
    );
    expect(await screen.findByTestId('sync-url-shown')).toHaveTextContent('https://league.example.com/schedule.csv?token=abc');
    expect(screen.getByTestId('edit-sync-url')).toHaveAttribute('href', '/seasons/s-1/edit');
    await waitFor(() => expect(status()).toHaveTextContent(/^Not synced yet · first sync at 2:00\sPM$/u));
    const failure = screen.getByTestId('sync-failure');
    expect(failure).toHaveTextContent('The last sync failed 12 minutes ago');
    expect(failure).toHaveTextContent('That address doesn’t serve a schedule: the page is HTML, not a schedule');
  });

  it('asks staff without a URL to add one, and cannot sync yet', async () => {
    setup(makeSeasonDetail({ viewerCanEdit: true }));
    expect(await screen.findByTestId('add-sync-url')).toHaveAttribute('href', '/seasons/s-1/edit');
    expect(screen.getByTestId('sync-now')).toBeDisabled();
  });

  it('syncs now: says it is fetching with the button off, then shows the report and re-reads the season', async () => {
    let finish: (v: unknown) => void = () => {};
    let synced = false;
    const staffSeason = () =>
      makeSeasonDetail({
        viewerCanEdit: true,
        syncUrl: 'https://league.example.com/schedule.csv',
        ...(synced ? { lastSyncAt: NOW.toISOString(), lastSync: { ok: true, finishedAt: NOW.toISOString(), games: { created: 40, updated: 0, unchanged: 0, removed: 0 }, error: null } } : {}),
      });
    const { server, user } = setup(staffSeason(), {
      'GET /seasons/s-1': () => staffSeason(),
      'POST /seasons/s-1/sync': () =>
        new Promise((resolve) => {
          finish = resolve;
        }),
    });
    await user.click(await screen.findByTestId('sync-now'));
    expect(await screen.findByTestId('sync-progress')).toHaveTextContent('Fetching the schedule…');
    expect(screen.getByTestId('sync-now')).toBeDisabled();

    synced = true;
    finish(makeReport({ games: { created: 40, updated: 2, unchanged: 5, removed: 1 }, events: { created: 30, updated: 2 }, rosters: { created: 8, updated: 0, matched: 6, unmatched: 2 }, errors: ['line 12: no date'] }));
    const report = await screen.findByTestId('sync-report');
    expect(screen.queryByTestId('sync-progress')).not.toBeInTheDocument();
    expect(within(report).getByText('Synced · CSV')).toBeInTheDocument();
    expect(within(report).getByTestId('report-games-created')).toHaveTextContent('40');
    expect(within(report).getByTestId('report-games-updated')).toHaveTextContent('2');
    expect(within(report).getByTestId('report-games-unchanged')).toHaveTextContent('5');
    expect(within(report).getByTestId('report-games-removed')).toHaveTextContent('1');
    expect(within(report).getByTestId('report-events')).toHaveTextContent('Events 30 created · 2 updated');
    expect(within(report).getByTestId('report-rosters')).toHaveTextContent('Teams 6 matched · 2 unmatched');
    expect(within(report).getByTestId('report-match-link')).toHaveAttribute('href', '/seasons/s-1/teams');
    expect(within(report).getByTestId('report-errors')).toHaveTextContent('1 row of the schedule could not be read');
    expect(server.callsTo('POST', '/seasons/s-1/sync')).toHaveLength(1);

    // The season is read again: what the card says is the server's word now.
    await waitFor(() => expect(status()).toHaveTextContent('Synced from the league’s schedule · last synced just now'));
    expect(await screen.findByTestId('league-teams-link')).toHaveTextContent('2 of 3 matched');
    expect(await screen.findByTestId('league-games')).toBeInTheDocument();
  });

  it('says why a sync failed, in words and in the server’s, once', async () => {
    let failed = false;
    const season = () =>
      makeSeasonDetail({
        viewerCanEdit: true,
        syncUrl: 'https://slow.example.com/s.ics',
        lastSync: failed ? { ok: false, finishedAt: NOW.toISOString(), games: { created: 0, updated: 0, unchanged: 0, removed: 0 }, error: { code: 'too_slow', message: 'the schedule did not arrive within 10 s' } } : null,
      });
    const { server, user } = setup(season(), {
      'GET /seasons/s-1': () => season(),
      'POST /seasons/s-1/sync': () => {
        failed = true;
        return apiError(422, 'too_slow', 'the schedule did not arrive within 10 s');
      },
    });
    await user.click(await screen.findByTestId('sync-now'));
    const error = await screen.findByTestId('sync-error');
    expect(error).toHaveTextContent('The schedule took too long to arrive (over 10 s)');
    expect(error).toHaveTextContent('The schedule did not arrive within 10 s');
    expect(screen.queryByTestId('sync-report')).not.toBeInTheDocument();
    expect(screen.getByTestId('sync-now')).toBeEnabled();
    // The season is read again (the failure is its newest run), but the card says it once.
    await waitFor(() => expect(server.callsTo('GET', '/seasons/s-1').length).toBeGreaterThanOrEqual(2));
    expect(screen.queryByTestId('sync-failure')).not.toBeInTheDocument();
    await user.click(within(error).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByTestId('sync-failure')).toHaveTextContent('The last sync failed just now');
  });

  it('says so when another sync is running', async () => {
    const { user } = setup(makeSeasonDetail({ viewerCanEdit: true, syncUrl: 'https://league.example.com/s.csv' }), {
      'POST /seasons/s-1/sync': apiError(409, 'sync_running', 'a sync of this season is running'),
    });
    await user.click(await screen.findByTestId('sync-now'));
    expect(await screen.findByTestId('sync-error')).toHaveTextContent('A sync is already running');
  });

  it('reads the history when opened: newest first, a failed run in red with its reason', async () => {
    const { server, user } = setup(makeSeasonDetail({ viewerCanEdit: true, syncUrl: 'https://league.example.com/s.csv', lastSyncAt: TWELVE_MIN_AGO }), {
      'GET /seasons/s-1/sync-runs': {
        items: [
          makeFailedRun({ id: 'r-3', trigger: 'SCHEDULED', finishedAt: TWELVE_MIN_AGO }),
          makeReport({ id: 'r-2', trigger: 'SCHEDULED', games: { created: 0, updated: 0, unchanged: 40, removed: 0 }, events: { created: 0, updated: 0 }, finishedAt: '2026-11-24T17:48:00Z' }),
          makeReport({ id: 'r-1', finishedAt: '2026-11-24T16:48:00Z' }),
        ],
      },
    });
    await screen.findByTestId('sync-card');
    expect(server.callsTo('GET', '/seasons/s-1/sync-runs')).toHaveLength(0);
    await user.click(screen.getByText('Sync history'));
    const runs = await screen.findByTestId('sync-runs');
    const rows = within(runs).getAllByRole('listitem');
    expect(rows.map((r) => r.dataset.testid)).toEqual(['sync-run-r-3', 'sync-run-r-2', 'sync-run-r-1']);
    expect(rows[0]).toHaveClass('sync-run--failed');
    expect(rows[0]).toHaveTextContent('Failed · Scheduled');
    expect(rows[0]).toHaveTextContent('The schedule took too long to arrive (over 10 s): the schedule did not arrive within 10 s');
    expect(rows[1]).toHaveTextContent('Scheduled · CSV');
    expect(rows[1]).toHaveTextContent('Games: nothing changed');
    expect(rows[2]).toHaveTextContent('Manual · CSV');
    expect(rows[2]).toHaveTextContent('Games: 40 new · events: 30 created, 0 updated · 2 unmatched');
  });
});
