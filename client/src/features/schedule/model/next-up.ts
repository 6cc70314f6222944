// Which of my schedule items Home's "Next up" shows (issue 26): what is
// still ahead or under way, never a finished game, at most NEXT_UP_SHOWN
// rows, except that my own places (in, or waiting for one) are never cut
// by the cap: a waitlisted pickup next week matters more than a team game
// I have not answered.

import type { ScheduleItem } from '../../../lib/api-types';

/** Rows Next up shows besides my own places. */
export const NEXT_UP_SHOWN = 6;

/** Statuses of a game that is over or will not be played. */
const OVER: ReadonlySet<string> = new Set(['FINAL']);

/** My own place: I am in, or waiting for a place. */
export function isMine(item: Pick<ScheduleItem, 'myState'>): boolean {
  return item.myState === 'ATTENDING' || item.myState === 'WAITLISTED';
}

/** Still ahead or under way: not a FINAL game, and not ended (a live game running late stays). */
export function isAhead(item: Pick<ScheduleItem, 'status' | 'endsAt'>, now: Date): boolean {
  if (OVER.has(item.status)) return false;
  if (item.status === 'LIVE') return true;
  return new Date(item.endsAt).getTime() >= now.getTime();
}

/**
 * The rows, in the order given (the schedule's, by start): not declined,
 * still ahead; every item of mine, and the first others up to the cap
 * counting mine.
 */
export function selectNextUp<T extends Pick<ScheduleItem, 'status' | 'endsAt' | 'myState'>>(items: T[], now: Date = new Date(), cap: number = NEXT_UP_SHOWN): T[] {
  const ahead = items.filter((i) => i.myState !== 'DECLINED' && isAhead(i, now));
  let room = cap - ahead.filter(isMine).length;
  return ahead.filter((i) => {
    if (isMine(i)) return true;
    room -= 1;
    return room >= 0;
  });
}

/** The fields of a game a `game:` topic moves, merged over the schedule's copy. */
export interface LiveScore {
  status: string;
  homeScore: number;
  awayScore: number;
}

export function withLiveScore<T extends ScheduleItem>(item: T, live: LiveScore | undefined): T {
  if (!live || item.kind !== 'GAME') return item;
  return { ...item, status: live.status, homeScore: live.homeScore, awayScore: live.awayScore };
}

/** How far ahead a scheduled game is watched live (so its puck drop shows up). */
export const WATCH_AHEAD_MS = 12 * 60 * 60 * 1000;

/** A game row worth a `game:` subscription: under way, or starting soon. */
export function worthWatching(item: Pick<ScheduleItem, 'kind' | 'status' | 'startsAt'>, now: Date): boolean {
  if (item.kind !== 'GAME') return false;
  if (item.status === 'LIVE') return true;
  return item.status === 'SCHEDULED' && new Date(item.startsAt).getTime() - now.getTime() <= WATCH_AHEAD_MS;
}
