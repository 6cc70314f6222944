import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouteNotice } from '../../../components/ui/route-notice';
import type { User } from '../../../lib/api-types';
import { makeUser } from '../../../testing/fixtures';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders, TEST_TOKEN } from '../../../testing/render';
import { inDays, makeInvitePreview } from '../testing';
import { InvitePage } from './invite-page';

const TIMEOUT_MS = 20_000;
const CODE = 'ABCD2345EFGH';

/** Where accepting leads: the page, with the notice the shell would show above it. */
const landing = (name: string) => (
  <>
    <RouteNotice />
    <p>{name}</p>
  </>
);

function setup(routes: Parameters<typeof mockApi>[0], { user = makeUser() as User | null } = {}) {
  const server = mockApi(routes);
  renderWithProviders(<InvitePage />, {
    user,
    route: `/invite/${CODE}`,
    path: '/invite/:code',
    extraRoutes: [
      { path: '/rosters/:id', element: landing('the roster page') },
      { path: '/events/:id', element: landing('the event page') },
      { path: '/sign-in', element: <p>the sign-in page</p> },
    ],
  });
  return { server, user: userEvent.setup() };
}

describe('InvitePage', { timeout: TIMEOUT_MS }, () => {
  it('shows a signed-out visitor who invited them to what, and the way to sign up and come back', async () => {
    const { server, user } = setup({ [`GET /invites/${CODE}`]: makeInvitePreview() }, { user: null });
    expect(await screen.findByTestId('invite-headline')).toHaveTextContent('Cara Captain invited you to join Owls (Winter League) — Owls Hockey Club');
    // Public: asked without a token, even if one were around.
    expect(server.callsTo('GET', `/invites/${CODE}`)[0]?.headers.Authorization).toBeUndefined();
    expect(screen.queryByTestId('invite-join')).not.toBeInTheDocument();
    expect(screen.getByTestId('invite-expires')).toHaveTextContent(/^Expires /);

    const signIn = screen.getByTestId('invite-sign-in');
    expect(signIn).toHaveTextContent('Sign up or sign in to join');
    expect(signIn).toHaveAttribute('href', `/sign-in?next=%2Finvite%2F${CODE}`);
    await user.click(signIn);
    expect(await screen.findByText('the sign-in page')).toBeInTheDocument();
  });

  it('joins in one tap and lands on the roster, saying so', async () => {
    const { server, user } = setup({
      [`GET /invites/${CODE}`]: makeInvitePreview(),
      [`POST /invites/${CODE}/accept`]: { kind: 'ROSTER', rosterId: 'r-1', eventId: null, result: 'JOINED' },
    });
    const join = await screen.findByTestId('invite-join');
    expect(join).toHaveTextContent('Join Owls');
    expect(screen.queryByTestId('invite-sign-in')).not.toBeInTheDocument();
    await user.click(join);

    expect(await screen.findByText('the roster page')).toBeInTheDocument();
    expect(screen.getByTestId('route-notice')).toHaveTextContent("You're on Owls");
    const accept = server.callsTo('POST', `/invites/${CODE}/accept`);
    expect(accept).toHaveLength(1);
    expect(accept[0]?.headers.Authorization).toBe(`Bearer ${TEST_TOKEN}`);

    // The notice goes when dismissed.
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('route-notice')).not.toBeInTheDocument();
  });

  it('stays and says the request is sent when the captain approves', async () => {
    const { user } = setup({
      [`GET /invites/${CODE}`]: makeInvitePreview({ requireApproval: true }),
      [`POST /invites/${CODE}/accept`]: { kind: 'ROSTER', rosterId: 'r-1', eventId: null, result: 'REQUESTED' },
    });
    expect(await screen.findByTestId('invite-approval-note')).toHaveTextContent('The captain approves each new player');
    await user.click(screen.getByTestId('invite-join'));
    expect(await screen.findByTestId('invite-sent')).toHaveTextContent('Request sent — the captain will approve it');
    expect(screen.queryByTestId('invite-join')).not.toBeInTheDocument();
    expect(screen.queryByText('the roster page')).not.toBeInTheDocument();
  });

  it('takes an event’s invite to the event, and says when it is', async () => {
    const { user } = setup({
      [`GET /invites/${CODE}`]: makeInvitePreview({ kind: 'EVENT', title: 'Friday pickup', teamName: null, startsAt: inDays(3) }),
      [`POST /invites/${CODE}/accept`]: { kind: 'EVENT', rosterId: null, eventId: 'e-1', result: 'WAITLISTED' },
    });
    expect(await screen.findByTestId('invite-headline')).toHaveTextContent('Cara Captain invited you to Friday pickup');
    expect(screen.getByTestId('invite-when')).toHaveTextContent(/\d{1,2}:\d{2}/);
    await user.click(screen.getByRole('button', { name: 'Join the event' }));
    expect(await screen.findByText('the event page')).toBeInTheDocument();
    expect(screen.getByTestId('route-notice')).toHaveTextContent("Friday pickup is full: you're on the waitlist");
  });

  it('goes there anyway when they were already on it', async () => {
    const { user } = setup({
      [`GET /invites/${CODE}`]: makeInvitePreview(),
      [`POST /invites/${CODE}/accept`]: { kind: 'ROSTER', rosterId: 'r-1', eventId: null, result: 'ALREADY' },
    });
    await user.click(await screen.findByTestId('invite-join'));
    expect(await screen.findByText('the roster page')).toBeInTheDocument();
    expect(screen.getByTestId('route-notice')).toHaveTextContent("You're already on it");
  });

  it('says a closed invite is closed, and offers nothing', async () => {
    setup({ [`GET /invites/${CODE}`]: makeInvitePreview({ status: 'REVOKED' }) }, { user: null });
    expect(await screen.findByTestId('invite-closed')).toHaveTextContent('This invite was revoked.');
    // Still says what it was for.
    expect(screen.getByTestId('invite-headline')).toHaveTextContent('Owls (Winter League)');
    expect(screen.queryByTestId('invite-sign-in')).not.toBeInTheDocument();
    expect(screen.queryByTestId('invite-join')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('says a used-up invite plainly to a signed-in visitor too', async () => {
    setup({ [`GET /invites/${CODE}`]: makeInvitePreview({ status: 'USED_UP' }) });
    expect(await screen.findByTestId('invite-closed')).toHaveTextContent('This invite has been used as many times as it allows.');
    expect(screen.queryByTestId('invite-join')).not.toBeInTheDocument();
  });

  it('shows a refusal in the server’s words, and reads the invite again', async () => {
    let status: 'ACTIVE' | 'USED_UP' = 'ACTIVE';
    const { server, user } = setup({
      [`GET /invites/${CODE}`]: () => makeInvitePreview({ status }),
      [`POST /invites/${CODE}/accept`]: () => {
        status = 'USED_UP';
        return apiError(409, 'invite_closed', 'this invite has been used as many times as it allows');
      },
    });
    await user.click(await screen.findByTestId('invite-join'));
    // The refusal, in the server's words (capitalised, as every message), and the re-read agrees: nothing to tap.
    const closed = await screen.findByTestId('invite-closed');
    expect(within(closed).getByText('This invite has been used as many times as it allows')).toBeInTheDocument();
    expect(server.callsTo('GET', `/invites/${CODE}`)).toHaveLength(2);
    expect(screen.queryByTestId('invite-join')).not.toBeInTheDocument();
  });

  it('shows a full roster in the server’s words, and leaves the button to try again', async () => {
    const { user } = setup({
      [`GET /invites/${CODE}`]: makeInvitePreview(),
      [`POST /invites/${CODE}/accept`]: apiError(409, 'roster_full', 'the roster is full (20 players)'),
    });
    await user.click(await screen.findByTestId('invite-join'));
    expect(await screen.findByTestId('invite-error')).toHaveTextContent('The roster is full (20 players)');
    await waitFor(() => expect(screen.getByTestId('invite-join')).toBeEnabled());
    expect(screen.queryByText('the roster page')).not.toBeInTheDocument();
  });

  it('says when there is no such invite', async () => {
    setup({ [`GET /invites/${CODE}`]: apiError(404, 'not_found', 'invite not found') }, { user: null });
    expect(await screen.findByText('No such invite')).toBeInTheDocument();
    expect(screen.getByText('Check the link, or ask whoever sent it for a new one.')).toBeInTheDocument();
  });
});
