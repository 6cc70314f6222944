// The board's filters as the address bar keeps them (so a filtered board
// can be shared or reloaded) and as `GET /statuses` takes them.

import { HOCKEY_POSITIONS, STATUS_TYPES, UNIVERSAL_DIVISIONS, type HockeyPosition, type StatusType, type UniversalDivision } from '../../../lib/api-types';
import type { BoardFilters } from '../api/statuses';

export type BoardWhen = 'any' | 'today' | 'week';

export const BOARD_WHEN_OPTIONS: ReadonlyArray<{ value: BoardWhen; label: string }> = [
  { value: 'any', label: 'Any time' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'Next 7 days' },
];

export interface BoardParams {
  type: StatusType | '';
  position: HockeyPosition | '';
  facilityId: string;
  division: UniversalDivision | '';
  when: BoardWhen;
}

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | '' {
  return raw && (values as readonly string[]).includes(raw) ? (raw as T) : '';
}

export function readBoardParams(sp: URLSearchParams): BoardParams {
  const when = sp.get('when');
  return {
    type: oneOf(STATUS_TYPES, sp.get('type')),
    position: oneOf(HOCKEY_POSITIONS, sp.get('position')),
    facilityId: sp.get('facility') ?? '',
    division: oneOf(UNIVERSAL_DIVISIONS, sp.get('division')),
    when: when === 'today' || when === 'week' ? when : 'any',
  };
}

export function writeBoardParams(p: BoardParams): URLSearchParams {
  const sp = new URLSearchParams();
  if (p.type) sp.set('type', p.type);
  if (p.position) sp.set('position', p.position);
  if (p.facilityId) sp.set('facility', p.facilityId);
  if (p.division) sp.set('division', p.division);
  if (p.when !== 'any') sp.set('when', p.when);
  return sp;
}

/** How many filters are set (the type chips excluded: they are always in view). */
export function activeBoardFilters(p: BoardParams): number {
  return [p.position, p.facilityId, p.division, p.when !== 'any' ? p.when : ''].filter(Boolean).length;
}

/**
 * The query for `GET /statuses`. The window runs in whole local days, from
 * the start of `today` (so the query key holds still all day): "Today" to
 * its end, "Next 7 days" to the end of the seventh day.
 */
export function toBoardFilters(p: BoardParams, today: Date): BoardFilters {
  const f: BoardFilters = {};
  if (p.type) f.type = p.type;
  if (p.position) f.position = p.position;
  if (p.facilityId) f.facilityId = p.facilityId;
  if (p.division) f.division = p.division;
  if (p.when !== 'any') {
    const start = new Date(today.getFullYear(), today.getMonth(), today.getDate());
    const end = new Date(start);
    end.setDate(end.getDate() + (p.when === 'today' ? 1 : 7));
    f.from = start.toISOString();
    f.to = new Date(end.getTime() - 1000).toISOString();
  }
  return f;
}
