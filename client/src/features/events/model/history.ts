// Who dropped late (docs/pickup-night.md › History and the record): the
// wire shapes of an event's history and a series' record, and how the
// timeline words an entry ("declined 3 h before").

import type { HockeyPosition } from '../../../lib/api-types';

export type HistoryKind = 'JOINED' | 'DECLINED' | 'REMOVED' | 'WAITLISTED' | 'PROMOTED' | 'LEFT_WAITLIST';

/** `GET /events/{id}/history` items, oldest first. */
export interface HistoryEntry {
  id: string;
  at: string;
  userId: string;
  displayName: string;
  kind: HistoryKind;
  position: HockeyPosition | null;
  /** Whole minutes from the action to puck drop (negative after it). */
  minutesBefore: number;
  /** A place given up within the event's late window. */
  late: boolean;
}

/** One person's line of `GET /event-series/{id}/record`. */
export interface RecordLine {
  userId: string;
  displayName: string;
  attended: number;
  lateDropOuts: number;
  noShows: number;
}

export interface SeriesRecord {
  items: RecordLine[];
}

export const KIND_VERBS: Record<HistoryKind, string> = {
  JOINED: 'joined',
  DECLINED: 'declined',
  REMOVED: 'was removed',
  WAITLISTED: 'went on the waitlist',
  PROMOTED: 'got a place off the waitlist',
  LEFT_WAITLIST: 'left the waitlist',
};

/** "3 h before", "45 min before", "2 days before", "20 min after the start", "at puck drop". */
export function whenWords(minutesBefore: number): string {
  const m = Math.abs(minutesBefore);
  const span = m < 60 ? `${m} min` : m < 48 * 60 ? `${Math.floor(m / 60)} h` : `${Math.floor(m / (24 * 60))} days`;
  if (minutesBefore === 0) return 'at puck drop';
  return minutesBefore > 0 ? `${span} before` : `${span} after the start`;
}

/** "Sam declined 3 h before". */
export function entryWords(e: HistoryEntry): string {
  return `${e.displayName} ${KIND_VERBS[e.kind]} ${whenWords(e.minutesBefore)}`;
}
