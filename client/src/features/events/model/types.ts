// Wire shapes of the attendees document (REST and the `event:ID` topic),
// RSVP replies, payments and the RSVP commands (CONTRACT.md › Events and RSVP).

import type { HockeyPosition, RsvpStatus } from '../../../lib/api-types';

export interface AttendingEntry {
  userId: string;
  displayName: string;
  position: HockeyPosition;
  respondedAt: string;
  /** Filled for organisers and for your own entry on REST reads; null on the topic. */
  isPaid: boolean | null;
}

export interface WaitlistEntry {
  userId: string;
  displayName: string;
  position: HockeyPosition;
  /** 1 = next to be promoted; counted per role (skater or goalie). */
  rank: number;
  addedAt: string;
  /** One of the event's regulars, who go first while the places are theirs (docs/pickup-night.md). */
  regular: boolean;
}

export interface AttendeeCounts {
  skaters: number;
  goalies: number;
  /** Null = unlimited. */
  maxSkaters: number | null;
  maxGoalies: number | null;
  waitlistSkaters: number;
  waitlistGoalies: number;
}

export interface AttendeesDoc {
  version: number;
  /** In order of acceptance, both roles together. */
  attending: AttendingEntry[];
  /** In order of acceptance; `rank` counts per role. */
  waitlist: WaitlistEntry[];
  counts: AttendeeCounts;
  /** The server adds this beside the contract's fields; absent means unknown. */
  cancelled?: boolean;
}

/** What an RSVP or removal answers, over REST and as a WebSocket reply. */
export interface RsvpReply {
  status: RsvpStatus;
  waitlistRank: number | null;
  version: number;
}

export interface EventPayment {
  id: string;
  eventId: string;
  userId: string;
  isPaid: boolean;
  /** The share when it was marked paid (docs/sides-and-bill.md); null for one marked before bills existed, or unpaid. */
  paidCents?: number | null;
  markedPaidAt: string | null;
  markedPaidById: string | null;
  createdAt: string;
  updatedAt: string;
}

export type RsvpAction = 'ATTENDING' | 'DECLINED';

/** The viewer answers an event: the `rsvp` command (socket), or PUT /events/ID/rsvp. */
export interface RsvpCommand {
  kind: 'rsvp';
  eventId: string;
  action: RsvpAction;
  position?: HockeyPosition;
}

/** An organiser takes someone off the list: the `removeAttendee` command, or DELETE /events/ID/attendees/USER. */
export interface RemoveAttendeeCommand {
  kind: 'removeAttendee';
  eventId: string;
  userId: string;
}
