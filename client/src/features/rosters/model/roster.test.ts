import { describe, expect, it } from 'vitest';
import { makePlayer, makeRoster } from '../testing';
import { letterOf, newestRoster, pendingKey, sortPlayers, standingOf } from './roster';

describe('newestRoster', () => {
  it('takes the push only when it is newer than the REST read', () => {
    const rest = makeRoster({ seq: 10, name: 'rest' });
    expect(newestRoster(rest, null).name).toBe('rest');
    expect(newestRoster(rest, { ...rest, seq: 10, name: 'push' }).name).toBe('rest');
    expect(newestRoster(rest, { ...rest, seq: 9, name: 'old push' }).name).toBe('rest');
    expect(newestRoster(rest, { ...rest, seq: 11, name: 'push' }).name).toBe('push');
  });
});

describe('standingOf', () => {
  const req = (id: string, userId: string, status: 'PENDING' | 'APPROVED' | 'REJECTED') => ({ id, userId, status, updatedAt: '2026-11-01T00:00:00Z' });

  it('follows my latest request, newest first', () => {
    expect(standingOf(makeRoster({ requests: [] }), 'u-me')).toEqual({ kind: 'none' });
    expect(standingOf(makeRoster({ requests: [req('q2', 'u-me', 'PENDING'), req('q1', 'u-me', 'REJECTED')] }), 'u-me')).toEqual({ kind: 'pending', requestId: 'q2' });
    expect(standingOf(makeRoster({ requests: [req('q1', 'u-me', 'REJECTED'), req('q0', 'u-x', 'PENDING')] }), 'u-me')).toEqual({ kind: 'rejected', requestId: 'q1' });
  });

  it('says member (and approved) once I am on the roster', () => {
    const me = makePlayer({ userId: 'u-me' });
    const s = standingOf(makeRoster({ players: [me], requests: [req('q1', 'u-me', 'APPROVED')] }), 'u-me');
    expect(s).toEqual({ kind: 'member', player: me, approved: true });
  });

  it('lets someone who left after approval ask again', () => {
    expect(standingOf(makeRoster({ players: [], requests: [req('q1', 'u-me', 'APPROVED')] }), 'u-me')).toEqual({ kind: 'none' });
  });

  it('keys the pending queue by its ids', () => {
    const doc = makeRoster({ requests: [req('b', 'u-1', 'PENDING'), req('a', 'u-2', 'PENDING'), req('c', 'u-3', 'REJECTED')] });
    expect(pendingKey(doc)).toBe('a,b');
  });
});

describe('sortPlayers', () => {
  const a = makePlayer({ userId: 'a', jerseyNumber: 17, goals: 3, assists: 1, points: 4, user: { id: 'a', username: 'al', firstName: 'Al', lastName: 'Zed', profileImage: null } });
  const b = makePlayer({ userId: 'b', jerseyNumber: 4, goals: 1, assists: 5, points: 6, user: { id: 'b', username: 'bo', firstName: 'Bo', lastName: 'Ace', profileImage: null } });
  const c = makePlayer({ userId: 'c', jerseyNumber: null, goals: 3, assists: 1, points: 4, user: { id: 'c', username: 'cy', firstName: 'Cy', lastName: 'May', profileImage: null } });

  it('orders by number with the unnumbered last', () => {
    expect(sortPlayers([a, c, b], 'number').map((p) => p.userId)).toEqual(['b', 'a', 'c']);
  });

  it('puts stat leaders first and breaks ties by number', () => {
    expect(sortPlayers([a, b, c], 'points').map((p) => p.userId)).toEqual(['b', 'a', 'c']);
    expect(sortPlayers([c, a, b], 'goals').map((p) => p.userId)).toEqual(['a', 'c', 'b']);
  });

  it('sorts by name', () => {
    expect(sortPlayers([a, b, c], 'name').map((p) => p.userId)).toEqual(['a', 'b', 'c']);
  });

  it('shows one letter per player', () => {
    expect(letterOf({ captain: true, alternateCaptain: false })).toBe('C');
    expect(letterOf({ captain: false, alternateCaptain: true })).toBe('A');
    expect(letterOf({ captain: false, alternateCaptain: false })).toBeNull();
  });
});
