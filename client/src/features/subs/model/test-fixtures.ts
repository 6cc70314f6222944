// Statuses and matches as the server sends them, for the subs feature's tests.

import type { Match, MatchEvent, Status } from '../../../lib/api-types';

/** A fixed "now" the fixtures are relative to. */
export const NOW = Date.parse('2030-03-10T18:00:00Z');
export const inHours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

export function makeStatus(over: Partial<Status> = {}): Status {
  return {
    id: 's-mine',
    type: 'AVAILABLE_TO_SUB',
    entityType: 'USER',
    userId: 'u-me',
    teamId: null,
    eventId: null,
    message: null,
    positions: ['GOALIE'],
    expiresAt: inHours(6),
    level: 'INTERMEDIATE',
    createdAt: new Date(NOW).toISOString(),
    updatedAt: new Date(NOW).toISOString(),
    user: { id: 'u-me', username: 'gary', firstName: 'Gary', lastName: 'Goalie', profileImage: null },
    team: null,
    event: null,
    ...over,
  };
}

export function makeMatchEvent(over: Partial<MatchEvent> = {}): MatchEvent {
  return {
    id: 'e-1',
    title: 'Late skate',
    startDate: inHours(3),
    facilityId: 'f-1',
    facilityName: 'Lakeside Ice',
    timezone: 'UTC',
    open: { skaters: 0, goalies: 1 },
    maxSkaters: 10,
    maxGoalies: 1,
    cancelled: false,
    level: 'INTERMEDIATE',
    asks: [],
    ...over,
  };
}

/** An open spot at an event for my status. */
export function spotMatch(event: Partial<MatchEvent> = {}, mine: Partial<Status> = {}): Match {
  const m = makeStatus(mine);
  const e = makeMatchEvent(event);
  return { id: `${m.id}:event:${e.id}`, mine: m, theirs: null, event: e };
}

/** My status matched with someone else's. */
export function statusMatch(theirs: Partial<Status> = {}, mine: Partial<Status> = {}): Match {
  const m = makeStatus(mine);
  const t = makeStatus({ id: 's-theirs', type: 'LOOKING_FOR_SUBS', entityType: 'TEAM', userId: 'u-cap', teamId: 't-1', user: null, team: { id: 't-1', name: 'Frozen Assets', logoUrl: null, facilityId: 'f-1', facilityName: 'Lakeside Ice' }, ...theirs });
  return { id: `${m.id}:status:${t.id}`, mine: m, theirs: t, event: null };
}
