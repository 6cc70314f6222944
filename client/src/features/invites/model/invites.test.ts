import { describe, expect, it } from 'vitest';
import { makeInvite, makeInvitePreview } from '../testing';
import { acceptOutcome, closedText, expiryText, inviteHeadline, inviteLink, inviteWhen, joinLabel, rosterNameOf, STATUS_LABELS, usesText } from './invites';

const WHEN = /^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2}\s?[AP]M$/;

describe('the card’s words', () => {
  it('makes the full link from this origin and the invite’s path', () => {
    expect(inviteLink(makeInvite({ path: '/invite/ABCD2345EFGH' }), 'https://rinkside.example')).toBe('https://rinkside.example/invite/ABCD2345EFGH');
    expect(inviteLink(makeInvite())).toBe(`${window.location.origin}/invite/ABCD2345EFGH`);
  });

  it('counts uses against the limit', () => {
    expect(usesText(makeInvite({ uses: 2, maxUses: 25 }))).toBe('2 of 25 used');
    expect(usesText(makeInvite({ uses: 1, maxUses: 1 }))).toBe('1 of 1 used');
  });

  it('names every status plainly', () => {
    expect(STATUS_LABELS).toEqual({ ACTIVE: 'Active', EXPIRED: 'Expired', REVOKED: 'Revoked', USED_UP: 'Used up' });
  });

  it('dates an invite by when it runs out, ran out, or was revoked', () => {
    const active = expiryText(makeInvite({ expiresAt: '2030-11-28T23:00:00Z' }));
    expect(active).toMatch(/^Expires /);
    expect(active.slice('Expires '.length)).toMatch(WHEN);
    expect(expiryText(makeInvite({ status: 'USED_UP' }))).toMatch(/^Expires /);
    expect(expiryText(makeInvite({ status: 'EXPIRED', expiresAt: '2026-11-01T12:00:00Z' }))).toMatch(/^Expired [A-Z][a-z]{2} \d/);
    const revoked = expiryText(makeInvite({ status: 'REVOKED', revokedAt: '2026-11-02T12:00:00Z', expiresAt: '2026-11-20T12:00:00Z' }));
    expect(revoked).toBe(`Revoked ${new Date('2026-11-02T12:00:00Z').toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })}`);
  });
});

describe('rosterNameOf', () => {
  it('takes the season off the server’s "{roster} ({season})"', () => {
    expect(rosterNameOf('Owls (Winter League)')).toBe('Owls');
    expect(rosterNameOf('Owls (Winter (2026))')).toBe('Owls');
    expect(rosterNameOf('Owls (A) (Winter League)')).toBe('Owls (A)');
  });

  it('leaves a title without a season as it is', () => {
    expect(rosterNameOf('Owls')).toBe('Owls');
    expect(rosterNameOf('(Winter)')).toBe('(Winter)');
    expect(rosterNameOf('Owls Winter)')).toBe('Owls Winter)');
  });
});

describe('the invite page’s words', () => {
  it('says who invited whom to what', () => {
    expect(inviteHeadline(makeInvitePreview())).toBe('Cara Captain invited you to join Owls (Winter League) — Owls Hockey Club');
    expect(inviteHeadline(makeInvitePreview({ invitedBy: null, teamName: null }))).toBe("You're invited to join Owls (Winter League)");
    expect(inviteHeadline(makeInvitePreview({ kind: 'EVENT', title: 'Friday pickup', teamName: null, startsAt: '2030-11-29T00:30:00Z' }))).toBe(
      'Cara Captain invited you to Friday pickup',
    );
  });

  it('gives an event’s time, and none for a roster', () => {
    expect(inviteWhen(makeInvitePreview())).toBeNull();
    expect(inviteWhen(makeInvitePreview({ kind: 'EVENT', startsAt: '2030-11-29T00:30:00Z' }), new Date('2030-11-01T12:00:00Z'))).toMatch(/^\w{3}, \w{3} \d{1,2} · \d{1,2}:\d{2}\s?[AP]M$/);
  });

  it('says plainly why a closed invite takes nobody, and nothing of an active one', () => {
    expect(closedText('ACTIVE')).toBeNull();
    expect(closedText('EXPIRED')).toBe('This invite has expired.');
    expect(closedText('REVOKED')).toBe('This invite was revoked.');
    expect(closedText('USED_UP')).toBe('This invite has been used as many times as it allows.');
  });

  it('labels the one button by what it does', () => {
    expect(joinLabel(makeInvitePreview())).toBe('Join Owls');
    expect(joinLabel(makeInvitePreview({ requireApproval: true }))).toBe('Ask to join Owls');
    expect(joinLabel(makeInvitePreview({ kind: 'EVENT', title: 'Friday pickup' }))).toBe('Join the event');
  });
});

describe('acceptOutcome', () => {
  const roster = makeInvitePreview();
  const event = makeInvitePreview({ kind: 'EVENT', title: 'Friday pickup', teamName: null });

  it('lands a new player on the roster, saying so', () => {
    expect(acceptOutcome({ kind: 'ROSTER', rosterId: 'r-1', eventId: null, result: 'JOINED' }, roster)).toEqual({ to: '/rosters/r-1', notice: "You're on Owls" });
  });

  it('stays with a request for the captain', () => {
    expect(acceptOutcome({ kind: 'ROSTER', rosterId: 'r-1', eventId: null, result: 'REQUESTED' }, roster)).toEqual({ to: null, message: 'Request sent — the captain will approve it' });
  });

  it('goes to the event, attending or waitlisted', () => {
    expect(acceptOutcome({ kind: 'EVENT', rosterId: null, eventId: 'e-1', result: 'ATTENDING' }, event)).toEqual({ to: '/events/e-1', notice: "You're in for Friday pickup" });
    expect(acceptOutcome({ kind: 'EVENT', rosterId: null, eventId: 'e-1', result: 'WAITLISTED' }, event)).toEqual({ to: '/events/e-1', notice: "Friday pickup is full: you're on the waitlist" });
  });

  it('goes there too when nothing changed', () => {
    expect(acceptOutcome({ kind: 'ROSTER', rosterId: 'r-1', eventId: null, result: 'ALREADY' }, roster)).toEqual({ to: '/rosters/r-1', notice: "You're already on it" });
    expect(acceptOutcome({ kind: 'EVENT', rosterId: null, eventId: 'e-1', result: 'ALREADY' }, event)).toEqual({ to: '/events/e-1', notice: "You're already on it" });
  });
});
