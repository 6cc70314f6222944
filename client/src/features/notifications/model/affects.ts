// What a notification means for the rest of the screen: every type but a
// reminder and a sub match tells of a change to my schedule (a new standing,
// time or place, a cancellation, a team, a game starting or its final
// score), so Home's "Next up" and My schedule reload when one arrives, on
// any node. A sub match is an event I have not answered: not on my schedule.
// My side for a pickup (SIDES_SET) does not move anything on it either, nor
// does the organiser's game-day alert (SHORT_HANDED), nor a nudge or a
// reminder to answer a game (AVAILABILITY_NUDGE, AVAILABILITY_REMINDER: they
// ask for an answer; the answer, when given, reloads the schedule itself).

import type { NotificationType } from './types';

const LEAVES_SCHEDULE: ReadonlySet<NotificationType> = new Set(['EVENT_REMINDER', 'SUB_MATCH', 'SIDES_SET', 'SHORT_HANDED', 'AVAILABILITY_NUDGE', 'AVAILABILITY_REMINDER']);

export function changesMySchedule(type: NotificationType): boolean {
  return !LEAVES_SCHEDULE.has(type);
}
