// Splitting the attending list into the event's groups (jersey colours).
// The server only stores `groupConfig`; everyone's client assigns people the
// same way from the same ordered list, so all screens agree.

import type { EventGroup, GroupConfig, HockeyPosition } from '../../../lib/api-types';

export interface AssignedGroup<T> {
  /** Null when the event has no groups: one plain list. */
  group: EventGroup | null;
  members: T[];
}

type Line = 'GOALIE' | 'DEFENSE' | 'FORWARD';

export function lineOf(position: HockeyPosition): Line {
  if (position === 'GOALIE') return 'GOALIE';
  if (position === 'LEFT_DEFENSE' || position === 'RIGHT_DEFENSE') return 'DEFENSE';
  return 'FORWARD';
}

const LINE_ORDER: Line[] = ['GOALIE', 'DEFENSE', 'FORWARD'];

/**
 * Deals `attending` (in acceptance order) into the configured groups.
 *
 * - `ORDER`: alternate in acceptance order (1st → A, 2nd → B, …).
 * - `POSITION`: goalies first, then defence, then forwards, each in
 *   acceptance order, dealt round-robin. The dealer does not restart at the
 *   first group for each line: it carries on where the previous line
 *   stopped, so every line *and* the group sizes stay within one of each
 *   other (with 1 goalie, 1 D and 1 F a restart would give A all three).
 * - No config (or fewer than two groups): one list, unchanged.
 */
export function assignGroups<T extends { position: HockeyPosition }>(
  attending: readonly T[],
  config: GroupConfig | null | undefined,
): AssignedGroup<T>[] {
  const groups = config?.groups ?? [];
  if (!config || groups.length < 2) return [{ group: null, members: [...attending] }];

  const ordered =
    config.balanceBy === 'POSITION'
      ? LINE_ORDER.flatMap((line) => attending.filter((p) => lineOf(p.position) === line))
      : [...attending];

  const out: AssignedGroup<T>[] = groups.map((group) => ({ group, members: [] }));
  ordered.forEach((person, i) => {
    out[i % out.length]?.members.push(person);
  });
  return out;
}
