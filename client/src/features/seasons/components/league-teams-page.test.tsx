import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeTeam, makeUser } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { ExternalRoster } from '../model/sync';
import { makeExternalRoster, makeRosterSummary, makeSeasonDetail } from '../testing';
import { LeagueTeamsPage } from './league-teams-page';

const TIMEOUT_MS = 20_000;

const frozen = makeExternalRoster({ id: 'x-1', name: 'Frozen Assets', originalDivision: 'Adult C1', isMatched: true, teamId: 't-1', teamName: 'Frozen Assets', matchSource: 'AUTO' });
const polar = makeExternalRoster({ id: 'x-2', name: 'Polar Bears', suggestions: [{ teamId: 't-pb', teamName: 'The Polar Bears' }] });
const wolves = makeExternalRoster({ id: 'x-3', name: 'Wolverines' });

/** The external-rosters route as a little server: PATCH and the claim calls change what GET answers. */
function leagueServer(initial: ExternalRoster[], teamNames: Record<string, string> = {}) {
  let rosters = initial.map((r) => ({ ...r }));
  const put = (r: ExternalRoster) => {
    rosters = rosters.map((x) => (x.id === r.id ? r : x));
    return r;
  };
  return {
    routes: {
      'GET /seasons/s-1/external-rosters': () => rosters,
      'PATCH /external-rosters/:id': (c: { body: unknown }, p: Record<string, string>) => {
        const { teamId } = c.body as { teamId: string | null };
        const r = rosters.find((x) => x.id === p.id) as ExternalRoster;
        return put({ ...r, isMatched: teamId !== null, teamId, teamName: teamId ? (teamNames[teamId] ?? teamId) : null, matchSource: teamId ? 'MANUAL' : null, claim: null, suggestions: teamId ? [] : r.suggestions });
      },
      'POST /external-rosters/:id/claim': (c: { body: unknown }, p: Record<string, string>) => {
        const { teamId } = c.body as { teamId: string };
        const r = rosters.find((x) => x.id === p.id) as ExternalRoster;
        return put({ ...r, claim: { teamId, teamName: teamNames[teamId] ?? teamId, claimedBy: 'u-me', claimedAt: '2026-11-24T14:00:00Z' } });
      },
      'DELETE /external-rosters/:id/claim': (_c: unknown, p: Record<string, string>) => {
        const r = rosters.find((x) => x.id === p.id) as ExternalRoster;
        put({ ...r, claim: null });
        return undefined;
      },
    },
  };
}

function setup(opts: { staff: boolean; rosters: ExternalRoster[]; teamNames?: Record<string, string>; routes?: Parameters<typeof mockApi>[0] }) {
  const league = leagueServer(opts.rosters, opts.teamNames);
  const server = mockApi({
    'GET /seasons/s-1': makeSeasonDetail({ viewerCanEdit: opts.staff, lastSyncAt: '2026-11-24T14:00:00Z' }),
    'GET /seasons/s-1/rosters': {
      items: [makeRosterSummary({ id: 'r-1', teamId: 't-1', teamName: 'Frozen Assets' }), makeRosterSummary({ id: 'r-2', teamId: 't-wh', teamName: 'Wolverines HC' })],
      nextCursor: null,
    },
    'GET /me/teams': { items: [], nextCursor: null },
    'GET /teams': { items: [], nextCursor: null },
    ...(league.routes as Parameters<typeof mockApi>[0]),
    ...opts.routes,
  });
  renderWithProviders(<LeagueTeamsPage />, { route: '/seasons/s-1/teams', path: '/seasons/:id/teams', user: makeUser({ id: 'u-me' }) });
  return { server, user: userEvent.setup() };
}

describe('LeagueTeamsPage', { timeout: TIMEOUT_MS }, () => {
  it('groups the league’s teams into unmatched and matched, and says how each match was made', async () => {
    setup({ staff: false, rosters: [frozen, polar, wolves] });
    const unmatched = await screen.findByTestId('unmatched-teams');
    expect(within(unmatched).getByRole('heading', { name: 'Not matched (2)' })).toBeInTheDocument();
    expect(within(unmatched).getAllByRole('listitem').map((li) => li.dataset.name)).toEqual(['Polar Bears', 'Wolverines']);
    const matched = screen.getByTestId('matched-teams');
    expect(within(matched).getByRole('heading', { name: 'Matched (1)' })).toBeInTheDocument();
    const row = within(matched).getByTestId('external-roster-x-1');
    expect(row).toHaveTextContent('Frozen Assets');
    expect(row).toHaveTextContent('Adult C1');
    expect(row).toHaveTextContent('by name');
    expect(within(row).getByTestId('matched-team')).toHaveAttribute('href', '/teams/t-1');
    // Not staff, running no team: nothing to press.
    expect(screen.queryByRole('button', { name: /match|claim|this is my team/i })).not.toBeInTheDocument();
    expect(screen.queryByTestId('claim-queue')).not.toBeInTheDocument();
  });

  it('lets staff match in one tap on a suggestion, and unmatch after a second tap', async () => {
    const { server, user } = setup({ staff: true, rosters: [frozen, polar, wolves], teamNames: { 't-pb': 'The Polar Bears' } });
    const row = await screen.findByTestId('external-roster-x-2');
    await user.click(within(row).getByRole('button', { name: 'Match Polar Bears to The Polar Bears' }));
    await waitFor(() => expect(within(screen.getByTestId('matched-teams')).getByTestId('external-roster-x-2')).toHaveTextContent('The Polar Bears'));
    expect(server.callsTo('PATCH', '/external-rosters/x-2')[0]?.body).toEqual({ teamId: 't-pb' });
    expect(within(screen.getByTestId('external-roster-x-2')).getByText('by hand')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Not matched (1)' })).toBeInTheDocument();

    const unmatch = within(screen.getByTestId('external-roster-x-1')).getByTestId('unmatch');
    await user.click(unmatch);
    expect(server.callsTo('PATCH', '/external-rosters/x-1')).toHaveLength(0);
    expect(unmatch).toHaveTextContent('Unmatch?');
    await user.click(unmatch);
    await waitFor(() => expect(within(screen.getByTestId('unmatched-teams')).getByTestId('external-roster-x-1')).toBeInTheDocument());
    expect(server.callsTo('PATCH', '/external-rosters/x-1')[0]?.body).toEqual({ teamId: null });
  });

  it('lets staff pick any team by name: this season’s first, then a search of every team', async () => {
    const { server, user } = setup({
      staff: true,
      rosters: [frozen, wolves],
      teamNames: { 't-wh': 'Wolverines HC' },
      routes: { 'GET /teams': (c) => ({ items: c.query.get('q')?.toLowerCase().startsWith('wol') ? [makeTeam({ id: 't-wh', name: 'Wolverines HC' }), makeTeam({ id: 't-w2', name: 'Wolverines Old Boys' })] : [], nextCursor: null }) },
    });
    const row = await screen.findByTestId('external-roster-x-3');
    await user.click(within(row).getByTestId('pick-team'));
    const form = within(row).getByTestId('match-form');
    expect(within(form).getByTestId('match-picked')).toBeDisabled();
    await user.click(within(form).getByTestId('team-picker'));
    // Before typing: the season's teams, the one already matched marked so.
    expect(screen.getByRole('option', { name: /Frozen Assets/ })).toHaveTextContent('Already matched to Frozen Assets');
    expect(screen.getByRole('option', { name: /Wolverines HC/ })).toHaveTextContent('Plays in this season');
    await user.type(within(form).getByTestId('team-picker'), 'Wol');
    expect(await screen.findByRole('option', { name: /Wolverines Old Boys/ })).toHaveTextContent('Another team on Rinkside');
    expect(screen.getAllByRole('option', { name: /Wolverines HC/ })).toHaveLength(1);
    await user.click(screen.getByRole('option', { name: /Wolverines HC/ }));
    await user.click(within(form).getByTestId('match-picked'));
    await waitFor(() => expect(server.callsTo('PATCH', '/external-rosters/x-3')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/external-rosters/x-3')[0]?.body).toEqual({ teamId: 't-wh' });
    expect(await within(screen.getByTestId('matched-teams')).findByText('Wolverines HC')).toBeInTheDocument();
  });

  it('shows staff the claims to confirm or decline', async () => {
    const claimed = (r: ExternalRoster, teamId: string, teamName: string): ExternalRoster => ({ ...r, claim: { teamId, teamName, claimedBy: 'u-owl', claimedAt: '2026-11-24T14:00:00Z' } });
    const { server, user } = setup({ staff: true, rosters: [frozen, claimed(polar, 't-owls', 'Ice Owls'), claimed(wolves, 't-sharks', 'Land Sharks')], teamNames: { 't-owls': 'Ice Owls' } });
    const queue = await screen.findByTestId('claim-queue');
    expect(within(queue).getByRole('heading', { name: 'Claims to review (2)' })).toBeInTheDocument();
    const owls = within(queue).getByTestId('claim-x-2');
    expect(owls).toHaveTextContent('Polar Bears');
    expect(owls).toHaveTextContent('Ice Owls’ staff say this is their team');

    await user.click(within(owls).getByTestId('confirm-claim'));
    await waitFor(() => expect(within(screen.getByTestId('matched-teams')).getByTestId('external-roster-x-2')).toHaveTextContent('Ice Owls'));
    expect(server.callsTo('PATCH', '/external-rosters/x-2')[0]?.body).toEqual({ teamId: 't-owls' });

    await user.click(within(screen.getByTestId('claim-x-3')).getByTestId('decline-claim'));
    await waitFor(() => expect(screen.queryByTestId('claim-queue')).not.toBeInTheDocument());
    expect(server.callsTo('DELETE', '/external-rosters/x-3/claim')).toHaveLength(1);
    expect(server.callsTo('PATCH', '/external-rosters/x-3')).toHaveLength(0);
    expect(within(screen.getByTestId('unmatched-teams')).getByTestId('external-roster-x-3')).toBeInTheDocument();
  });

  it('lets a team’s manager say "this is my team", picking among the teams they run, and withdraw it', async () => {
    const { server, user } = setup({
      staff: false,
      rosters: [frozen, polar, wolves],
      teamNames: { 't-owls': 'Ice Owls' },
      routes: { 'GET /me/teams': { items: [makeTeam({ id: 't-owls', name: 'Ice Owls' }), makeTeam({ id: 't-b', name: 'Beer League Bs' })], nextCursor: null } },
    });
    const row = await screen.findByTestId('external-roster-x-2');
    await user.click(await within(row).findByTestId('claim-team'));
    const form = within(row).getByTestId('claim-form');
    expect(within(form).getByTestId('send-claim')).toBeDisabled();
    await user.selectOptions(within(form).getByTestId('claim-team-select'), 't-owls');
    await user.click(within(form).getByTestId('send-claim'));
    const pending = await within(row).findByTestId('claim-pending');
    expect(pending).toHaveTextContent('You said this is Ice Owls. Waiting for the rink’s staff to confirm.');
    expect(server.callsTo('POST', '/external-rosters/x-2/claim')[0]?.body).toEqual({ teamId: 't-owls' });

    await user.click(within(pending).getByTestId('withdraw-claim'));
    expect(await within(row).findByTestId('claim-team')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/external-rosters/x-2/claim')).toHaveLength(1);
  });

  it('says when staff matched the team before the claim got there', async () => {
    const { user } = setup({
      staff: false,
      rosters: [polar],
      routes: {
        'GET /me/teams': { items: [makeTeam({ id: 't-owls', name: 'Ice Owls' })], nextCursor: null },
        'POST /external-rosters/:id/claim': apiError(409, 'already_matched', 'this external roster is matched'),
      },
    });
    const row = await screen.findByTestId('external-roster-x-2');
    await user.click(await within(row).findByTestId('claim-team'));
    expect(within(row).getByTestId('claim-form')).toHaveTextContent('Tell the rink’s staff that Polar Bears is Ice Owls?');
    await user.click(within(row).getByTestId('send-claim'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The rink’s staff matched this team meanwhile.');
  });

  it('says when the league has no teams yet', async () => {
    setup({ staff: true, rosters: [] });
    expect(await screen.findByText('No league teams yet')).toBeInTheDocument();
  });
});
