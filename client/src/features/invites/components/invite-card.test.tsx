import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invite } from '../../../lib/api-types';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { inDays, makeInvite } from '../testing';
import type { InviteTarget } from '../model/invites';
import { InviteCard } from './invite-card';

const TIMEOUT_MS = 20_000;
const ROSTER: InviteTarget = { kind: 'ROSTER', id: 'r-1' };

/** The card as a page holds it, with the page's live version in state (moved by `moveVersion`). */
function Page({ target, initial, onSetter }: { target: InviteTarget; initial: number; onSetter: (set: (v: number) => void) => void }) {
  const [version, setVersion] = useState(initial);
  onSetter(setVersion);
  return <InviteCard target={target} name="Owls" version={version} />;
}

function setup(routes: Parameters<typeof mockApi>[0], { target = ROSTER, version = 1 }: { target?: InviteTarget; version?: number } = {}) {
  const server = mockApi(routes);
  const user = userEvent.setup();
  let setVersion: (v: number) => void = () => {};
  renderWithProviders(<Page target={target} initial={version} onSetter={(set) => (setVersion = set)} />, { route: '/rosters/r-1' });
  const moveVersion = (v: number) => act(() => setVersion(v));
  return { server, user, moveVersion };
}

/** A roster's invites, answered from (and added to) a list the test holds. */
function inviteServer(initial: Invite[] = []) {
  let invites = initial;
  return {
    get list() {
      return invites;
    },
    set list(next: Invite[]) {
      invites = next;
    },
    routes: {
      'GET /rosters/r-1/invites': () => invites,
      'POST /rosters/r-1/invites': (call: { body: unknown }) => {
        const body = (call.body ?? {}) as { email?: string; expiresInDays?: number; requireApproval?: boolean };
        const made = makeInvite({
          id: `i-${invites.length + 1}`,
          code: `CODE${invites.length + 1}XYZABCD`.slice(0, 12),
          email: body.email ?? null,
          requireApproval: body.requireApproval ?? false,
          maxUses: body.email ? 1 : 25,
          expiresAt: inDays(body.expiresInDays ?? 14),
        });
        invites = [made, ...invites];
        return reply(201, made);
      },
      'DELETE /invites/:code': (_call: unknown, params: Record<string, string>) => {
        invites = invites.map((i) => (i.code === params.code ? { ...i, status: 'REVOKED' as const, revokedAt: new Date().toISOString() } : i));
        return undefined;
      },
    },
  };
}

describe('InviteCard', { timeout: TIMEOUT_MS }, () => {
  afterEach(() => {
    // Only some tests give the browser a share sheet.
    delete (navigator as { share?: unknown }).share;
  });

  it('makes a link in one tap and shows it whole, with its QR code, and copies it', async () => {
    const api = inviteServer();
    const { server, user } = setup(api.routes);
    expect(await screen.findByTestId('invites-empty')).toHaveTextContent('No invites yet.');
    expect(screen.getByRole('heading', { name: 'Invite players' })).toBeInTheDocument();

    await user.click(screen.getByTestId('invite-create-link'));
    await waitFor(() => expect(server.callsTo('POST', '/rosters/r-1/invites')).toHaveLength(1));
    // The server's defaults: a link for 14 days, 25 uses.
    expect(server.callsTo('POST', '/rosters/r-1/invites')[0]?.body).toEqual({});

    const link = `${window.location.origin}/invite/CODE1XYZABCD`;
    expect(await screen.findByTestId('invite-link')).toHaveValue(link);
    expect(screen.getByTestId('invite-qr')).toHaveAttribute('data-text', link);
    expect(screen.getByRole('img', { name: `QR code of the invite link ${link}` })).toBeInTheDocument();
    // No share sheet in this browser: no Share button.
    expect(screen.queryByTestId('invite-share')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('invite-copy'));
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(screen.getByTestId('invite-copy')).toHaveTextContent('Copied');

    // The list was read again and holds it.
    const row = await screen.findByTestId('invite-row-CODE1XYZABCD');
    expect(within(row).getByTestId('invite-status')).toHaveTextContent('Active');
    expect(within(row).getByTestId('invite-uses')).toHaveTextContent('0 of 25 used');
    expect(within(row).getByTestId('invite-expiry')).toHaveTextContent(/^Expires /);
  });

  it('offers the share sheet where the browser has one', async () => {
    const share = vi.fn(async () => {});
    Object.defineProperty(navigator, 'share', { value: share, configurable: true, writable: true });
    const api = inviteServer();
    const { user } = setup(api.routes);
    await user.click(await screen.findByTestId('invite-create-link'));
    await user.click(await screen.findByTestId('invite-share'));
    expect(share).toHaveBeenCalledWith({ title: 'Join Owls on Rinkside', text: 'Join Owls on Rinkside', url: `${window.location.origin}/invite/CODE1XYZABCD` });
  });

  it('lists the invites with their status, uses, expiry and address', async () => {
    const { user } = setup({
      'GET /rosters/r-1/invites': [
        makeInvite({ id: 'i-4', code: 'ACTIVE234567', uses: 2, maxUses: 25 }),
        makeInvite({ id: 'i-3', code: 'MAILED234567', email: 'ada@example.com', maxUses: 1, uses: 1, status: 'USED_UP', requireApproval: true }),
        makeInvite({ id: 'i-2', code: 'EXPIRED23456', status: 'EXPIRED', expiresAt: inDays(-1) }),
        makeInvite({ id: 'i-1', code: 'REVOKED23456', status: 'REVOKED', revokedAt: inDays(-2) }),
      ],
    });
    const active = await screen.findByTestId('invite-row-ACTIVE234567');
    expect(within(active).getByTestId('invite-status')).toHaveTextContent('Active');
    expect(within(active).getByTestId('invite-uses')).toHaveTextContent('2 of 25 used');
    expect(within(active).getByTestId('invite-revoke')).toBeInTheDocument();

    const mailed = screen.getByTestId('invite-row-MAILED234567');
    expect(within(mailed).getByTestId('invite-status')).toHaveTextContent('Used up');
    expect(mailed).toHaveTextContent('ada@example.com');
    expect(mailed).toHaveTextContent('Approval');
    expect(within(mailed).getByTestId('invite-uses')).toHaveTextContent('1 of 1 used');
    // A closed invite has nothing to revoke or share.
    expect(within(mailed).queryByTestId('invite-revoke')).not.toBeInTheDocument();
    expect(within(mailed).queryByTestId('invite-show')).not.toBeInTheDocument();

    const expired = screen.getByTestId('invite-row-EXPIRED23456');
    expect(within(expired).getByTestId('invite-status')).toHaveTextContent('Expired');
    expect(within(expired).getByTestId('invite-expiry')).toHaveTextContent(/^Expired /);
    const revoked = screen.getByTestId('invite-row-REVOKED23456');
    expect(within(revoked).getByTestId('invite-status')).toHaveTextContent('Revoked');
    expect(within(revoked).getByTestId('invite-expiry')).toHaveTextContent(/^Revoked /);

    // An older active invite's link can be shown again.
    await user.click(within(active).getByTestId('invite-show'));
    expect(screen.getByTestId('invite-link')).toHaveValue(`${window.location.origin}/invite/ACTIVE234567`);
  });

  it('re-reads the list when the page’s live document moves, so uses follow joins', async () => {
    const api = inviteServer([makeInvite({ code: 'ABCD2345EFGH', uses: 0 })]);
    const { server, moveVersion } = setup(api.routes, { version: 100 });
    const row = await screen.findByTestId('invite-row-ABCD2345EFGH');
    expect(within(row).getByTestId('invite-uses')).toHaveTextContent('0 of 25 used');

    // Someone joined through it: the roster's seq moved.
    api.list = [makeInvite({ code: 'ABCD2345EFGH', uses: 1 })];
    moveVersion(101);
    await waitFor(() => expect(within(screen.getByTestId('invite-row-ABCD2345EFGH')).getByTestId('invite-uses')).toHaveTextContent('1 of 25 used'));
    expect(server.callsTo('GET', '/rosters/r-1/invites')).toHaveLength(2);
  });

  it('revokes an invite after a confirming second tap, and hides its link', async () => {
    const api = inviteServer([makeInvite({ id: 'i-9', code: 'ABCD2345EFGH' })]);
    const { server, user } = setup(api.routes);
    const row = await screen.findByTestId('invite-row-ABCD2345EFGH');
    await user.click(within(row).getByTestId('invite-show'));
    expect(screen.getByTestId('invite-link-panel')).toBeInTheDocument();

    const revoke = within(row).getByTestId('invite-revoke');
    await user.click(revoke);
    expect(server.callsTo('DELETE', '/invites/ABCD2345EFGH')).toHaveLength(0);
    expect(revoke).toHaveTextContent('Revoke?');
    await user.click(revoke);
    await waitFor(() => expect(server.callsTo('DELETE', '/invites/ABCD2345EFGH')).toHaveLength(1));

    await waitFor(() => expect(within(screen.getByTestId('invite-row-ABCD2345EFGH')).getByTestId('invite-status')).toHaveTextContent('Revoked'));
    expect(within(screen.getByTestId('invite-row-ABCD2345EFGH')).queryByTestId('invite-revoke')).not.toBeInTheDocument();
    expect(screen.queryByTestId('invite-link-panel')).not.toBeInTheDocument();
  });

  it('says a refused revoke in the server’s words', async () => {
    const { user } = setup({
      'GET /rosters/r-1/invites': [makeInvite({ id: 'i-9' })],
      'DELETE /invites/ABCD2345EFGH': apiError(403, 'forbidden', 'only those who decide join requests may do that'),
    });
    const row = await screen.findByTestId('invite-row-ABCD2345EFGH');
    await user.click(within(row).getByTestId('invite-revoke'));
    await user.click(within(row).getByTestId('invite-revoke'));
    expect(await within(row).findByRole('alert')).toHaveTextContent('Only those who decide join requests may do that');
  });

  it('invites by email with approval and an expiry, and shows refused fields beside them', async () => {
    const api = inviteServer();
    let refuse = true;
    const { server, user } = setup({
      ...api.routes,
      'POST /rosters/r-1/invites': (call: { body: unknown }) =>
        refuse ? apiError(422, 'validation_failed', 'some fields are invalid', { email: 'not an email address', expiresInDays: 'must be 1–30' }) : api.routes['POST /rosters/r-1/invites'](call),
    });
    await screen.findByTestId('invites-empty');

    // Nothing typed: said at once, nothing sent.
    await user.click(screen.getByTestId('invite-email-submit'));
    expect(screen.getByTestId('invite-email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Enter their email address.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/rosters/r-1/invites')).toHaveLength(0);

    await user.type(screen.getByTestId('invite-email'), 'ada@');
    await user.click(screen.getByTestId('invite-approval'));
    await user.selectOptions(screen.getByTestId('invite-expires'), '7');
    await user.click(screen.getByTestId('invite-email-submit'));
    await waitFor(() => expect(server.callsTo('POST', '/rosters/r-1/invites')).toHaveLength(1));
    expect(server.callsTo('POST', '/rosters/r-1/invites')[0]?.body).toEqual({ email: 'ada@', expiresInDays: 7, requireApproval: true });

    const email = screen.getByTestId('invite-email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(email.getAttribute('aria-describedby') ?? '')).toHaveTextContent('Not an email address');
    const expires = screen.getByTestId('invite-expires');
    expect(expires).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(expires.getAttribute('aria-describedby') ?? '')).toHaveTextContent('Must be 1–30');

    refuse = false;
    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.click(screen.getByTestId('invite-email-submit'));
    expect(await screen.findByTestId('invite-email-made')).toHaveTextContent('Invite for ada@example.com made');
    expect(screen.getByTestId('invite-email')).toHaveValue('');
    expect(screen.getByTestId('invite-email')).not.toHaveAttribute('aria-invalid');
    // Its link is there to send by hand, and the list holds it.
    expect(screen.getByTestId('invite-link')).toHaveValue(`${window.location.origin}/invite/CODE1XYZABCD`);
    const row = await screen.findByTestId('invite-row-CODE1XYZABCD');
    expect(row).toHaveTextContent('ada@example.com');
    expect(within(row).getByTestId('invite-uses')).toHaveTextContent('0 of 1 used');
  });

  it('says a refusal about no field of the form above it', async () => {
    const { user } = setup({
      'GET /rosters/r-1/invites': [],
      'POST /rosters/r-1/invites': apiError(422, 'validation_failed', 'some fields are invalid', { maxUses: 'must be 1–100' }),
    });
    await screen.findByTestId('invites-empty');
    await user.type(screen.getByTestId('invite-email'), 'ada@example.com');
    await user.click(screen.getByTestId('invite-email-submit'));
    expect(await within(screen.getByTestId('invite-email-form')).findByRole('alert')).toHaveTextContent('Must be 1–100');
  });

  it('invites people to an event, with no approval to ask for', async () => {
    const { server, user } = setup(
      {
        'GET /events/e-1/invites': [],
        'POST /events/e-1/invites': () => reply(201, makeInvite({ kind: 'EVENT', rosterId: null, eventId: 'e-1', code: 'EVENT2345678', email: 'ada@example.com', maxUses: 1 })),
      },
      { target: { kind: 'EVENT', id: 'e-1' } },
    );
    expect(await screen.findByRole('heading', { name: 'Invite people' })).toBeInTheDocument();
    expect(screen.queryByTestId('invite-approval')).not.toBeInTheDocument();
    await user.type(screen.getByTestId('invite-email'), 'ada@example.com');
    await user.click(screen.getByTestId('invite-email-submit'));
    await waitFor(() => expect(server.callsTo('POST', '/events/e-1/invites')).toHaveLength(1));
    expect(server.callsTo('POST', '/events/e-1/invites')[0]?.body).toEqual({ email: 'ada@example.com', expiresInDays: 14 });
  });
});
