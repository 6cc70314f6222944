// Pure rules of invites (docs/invites.md): the words of the card's list
// and of the invite page, the link to share, and where accepting leads.

import type { Accepted, Invite, InviteKind, InvitePreview, InviteStatus } from '../../../lib/api-types';
import { eventWhen } from '../../../lib/event-format';

/** Where an invite brings people: a roster or an event, by id. */
export interface InviteTarget {
  kind: InviteKind;
  id: string;
}

/** The choices of "Expires in"; the server takes 1–30 days. */
export const EXPIRY_DAYS = [1, 7, 14, 30] as const;
/** The server's default, so the form starts where a link made in one tap would be. */
export const DEFAULT_EXPIRY_DAYS = 14;

export const STATUS_LABELS: Record<InviteStatus, string> = {
  ACTIVE: 'Active',
  EXPIRED: 'Expired',
  REVOKED: 'Revoked',
  USED_UP: 'Used up',
};

/** The full link to share: this app's origin and the invite's path (`/invite/{code}`). */
export function inviteLink(invite: Pick<Invite, 'path'>, origin: string = window.location.origin): string {
  return `${origin}${invite.path}`;
}

/** "2 of 25 used". */
export function usesText(invite: Pick<Invite, 'uses' | 'maxUses'>): string {
  return `${invite.uses} of ${invite.maxUses} used`;
}

/** "Nov 28, 6:00 PM" in the viewer's zone (an invite is no event at a rink: no rink clock to follow). */
export function shortWhen(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** The list's date line: when it runs out, ran out, or was revoked. */
export function expiryText(invite: Pick<Invite, 'status' | 'expiresAt'> & { revokedAt?: string | null }): string {
  switch (invite.status) {
    case 'REVOKED':
      return `Revoked ${shortWhen(invite.revokedAt ?? invite.expiresAt)}`;
    case 'EXPIRED':
      return `Expired ${shortWhen(invite.expiresAt)}`;
    default:
      return `Expires ${shortWhen(invite.expiresAt)}`;
  }
}

/**
 * The roster's own name from a preview's title, which the server writes as
 * "{roster} ({season})": the title without its last bracketed part (which
 * may hold brackets itself). A title without one is the name.
 */
export function rosterNameOf(title: string): string {
  const t = title.trim();
  if (!t.endsWith(')')) return t;
  let depth = 0;
  for (let i = t.length - 1; i >= 0; i--) {
    if (t[i] === ')') depth++;
    else if (t[i] === '(') {
      depth--;
      if (depth === 0) {
        const name = t.slice(0, i).trim();
        return name || t;
      }
    }
  }
  return t;
}

/** "Cara Captain invited you to join Owls (Winter League) — Owls Hockey Club", or to an event by its title. */
export function inviteHeadline(preview: Pick<InvitePreview, 'kind' | 'title' | 'teamName' | 'invitedBy'>): string {
  const who = preview.invitedBy ? `${preview.invitedBy} invited you` : "You're invited";
  if (preview.kind === 'EVENT') return `${who} to ${preview.title}`;
  return `${who} to join ${preview.title}${preview.teamName ? ` — ${preview.teamName}` : ''}`;
}

/** "Sat, Nov 28 · 7:00 PM" for an event's invite; null for a roster's. */
export function inviteWhen(preview: Pick<InvitePreview, 'startsAt'>, now: Date = new Date()): string | null {
  return preview.startsAt ? eventWhen({ startDate: preview.startsAt, endDate: null }, now) : null;
}

/** What a closed invite says, plainly; null while it is active. */
export function closedText(status: InviteStatus): string | null {
  switch (status) {
    case 'EXPIRED':
      return 'This invite has expired.';
    case 'REVOKED':
      return 'This invite was revoked.';
    case 'USED_UP':
      return 'This invite has been used as many times as it allows.';
    default:
      return null;
  }
}

/** The one button of a signed-in visitor: "Join Owls", "Ask to join Owls", "Join the event". */
export function joinLabel(preview: Pick<InvitePreview, 'kind' | 'title' | 'requireApproval'>): string {
  if (preview.kind === 'EVENT') return 'Join the event';
  const name = rosterNameOf(preview.title);
  return preview.requireApproval ? `Ask to join ${name}` : `Join ${name}`;
}

/** After accepting: a page to go to, opening with a notice, or a message to show here. */
export type AcceptOutcome = { to: string; notice: string } | { to: null; message: string };

/** Where the server's answer leads (docs/invites.md › Opening one). */
export function acceptOutcome(accepted: Accepted, preview: Pick<InvitePreview, 'title'>): AcceptOutcome {
  const place = accepted.rosterId ? `/rosters/${accepted.rosterId}` : accepted.eventId ? `/events/${accepted.eventId}` : null;
  switch (accepted.result) {
    case 'REQUESTED':
      return { to: null, message: 'Request sent — the captain will approve it' };
    case 'JOINED':
      if (place) return { to: place, notice: `You're on ${rosterNameOf(preview.title)}` };
      break;
    case 'ATTENDING':
      if (place) return { to: place, notice: `You're in for ${preview.title}` };
      break;
    case 'WAITLISTED':
      if (place) return { to: place, notice: `${preview.title} is full: you're on the waitlist` };
      break;
    case 'ALREADY':
      if (place) return { to: place, notice: "You're already on it" };
      break;
  }
  return { to: null, message: 'Done.' };
}
