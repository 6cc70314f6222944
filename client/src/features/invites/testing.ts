// Test data for the invites feature's tests (not shipped: only tests import it).

import type { Invite, InvitePreview } from '../../lib/api-types';

const DAY_MS = 86_400_000;
/** A moment `days` from now, as the server writes times. */
export const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

/** A roster's link, as `POST /rosters/r-1/invites {}` makes it: 25 uses, 14 days. */
export function makeInvite(over: Partial<Invite> = {}): Invite {
  const code = over.code ?? 'ABCD2345EFGH';
  return {
    id: 'i-1',
    code,
    path: `/invite/${code}`,
    kind: 'ROSTER',
    rosterId: 'r-1',
    eventId: null,
    email: null,
    requireApproval: false,
    maxUses: 25,
    uses: 0,
    status: 'ACTIVE',
    expiresAt: inDays(14),
    revokedAt: null,
    createdAt: inDays(0),
    ...over,
  };
}

/** Cara's invite to the Owls' winter roster. */
export function makeInvitePreview(over: Partial<InvitePreview> = {}): InvitePreview {
  return {
    code: 'ABCD2345EFGH',
    kind: 'ROSTER',
    title: 'Owls (Winter League)',
    teamName: 'Owls Hockey Club',
    startsAt: null,
    invitedBy: 'Cara Captain',
    requireApproval: false,
    status: 'ACTIVE',
    expiresAt: inDays(14),
    ...over,
  };
}
