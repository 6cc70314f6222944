// How statuses read on screen: their kinds, who they are about, what they
// ask for or offer, and until when.

import type { HockeyPosition, Status, StatusType } from '../../../lib/api-types';
import { HOCKEY_POSITIONS } from '../../../lib/api-types';
import { rinkDayLabel } from '../../../lib/time-zone';
import { displayName } from '../../../lib/format';

export const STATUS_TYPE_LABELS: Record<StatusType, string> = {
  AVAILABLE_TO_SUB: 'Available to sub',
  LOOKING_FOR_SUBS: 'Looking for subs',
  LOOKING_FOR_TEAM: 'Looking for a team',
  RECRUITING: 'Recruiting',
};

/** One line under each choice in the form. */
export const STATUS_TYPE_BLURBS: Record<StatusType, string> = {
  AVAILABLE_TO_SUB: 'Free to fill in tonight. Teams and pickups short a player find you.',
  LOOKING_FOR_TEAM: 'Want a regular spot on a roster. Recruiting teams find you.',
  LOOKING_FOR_SUBS: 'Short for a game. Players available to sub find you.',
  RECRUITING: 'Room on the roster this season. Players looking for a team find you.',
};

/** Types a person posts for themselves, and types a team posts. */
export const PERSONAL_TYPES: readonly StatusType[] = ['AVAILABLE_TO_SUB', 'LOOKING_FOR_TEAM'];
export const TEAM_TYPES: readonly StatusType[] = ['LOOKING_FOR_SUBS', 'RECRUITING'];

/** Types that are about tonight (or the next days) and expire by the end of the day unless told otherwise. */
export function isShortLived(type: StatusType): boolean {
  return type === 'AVAILABLE_TO_SUB' || type === 'LOOKING_FOR_SUBS';
}

const SKATER_POSITIONS = HOCKEY_POSITIONS.filter((p) => p !== 'GOALIE');

/** Every skater position and no goalie: said as "Any skater" rather than five chips. */
export function isAllSkaters(positions: readonly HockeyPosition[]): boolean {
  return positions.length === SKATER_POSITIONS.length && SKATER_POSITIONS.every((p) => positions.includes(p));
}

/** Who a status is about: the person, or the team. */
export function statusName(s: Status): string {
  if (s.entityType === 'TEAM') return s.team?.name ?? 'A team';
  return s.user ? displayName(s.user) : 'A Rinkside member';
}

/** What an event's call for subs asks for: "a goalie", "goalies", "skaters", "a skater", or "subs". */
export function callNoun(positions: readonly HockeyPosition[], count = 1): string {
  if (positions.length === 1 && positions[0] === 'GOALIE') return count === 1 ? 'a goalie' : 'goalies';
  if (positions.length > 0 && !positions.includes('GOALIE')) return count === 1 && positions.length < SKATER_POSITIONS.length ? 'a skater' : 'skaters';
  return 'subs';
}

/** "until 11:59 PM" today, "until tomorrow, 11:59 PM", "until Sat, Dec 5". */
export function untilText(expiresAt: string, now: Date = new Date()): string {
  const d = new Date(expiresAt);
  if (Number.isNaN(d.getTime())) return '';
  const time = d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  const label = rinkDayLabel(expiresAt, null, now);
  if (label === 'Today') return `until ${time}`;
  if (label === 'Tomorrow') return `until tomorrow, ${time}`;
  const days = (d.getTime() - now.getTime()) / 86_400_000;
  return `until ${d.toLocaleDateString(undefined, { weekday: days < 7 ? 'short' : undefined, month: 'short', day: 'numeric', ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }) })}`;
}

/** "Short tonight" style verb phrase for a type, used in match lines. */
export function offerLine(s: Status): string {
  switch (s.type) {
    case 'AVAILABLE_TO_SUB':
      return 'is available to sub';
    case 'LOOKING_FOR_TEAM':
      return 'is looking for a team';
    case 'LOOKING_FOR_SUBS':
      return 'is looking for subs';
    case 'RECRUITING':
      return 'is recruiting';
  }
}
