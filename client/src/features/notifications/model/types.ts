// The wire shapes of docs/notifications.md.

export type NotificationType =
  | 'WAITLIST_PROMOTED'
  | 'REMOVED_FROM_EVENT'
  | 'EVENT_CANCELLED'
  | 'EVENT_MOVED'
  | 'JOIN_REQUEST_APPROVED'
  | 'JOIN_REQUEST_REJECTED'
  | 'ADDED_TO_ROSTER'
  | 'GAME_STARTED'
  | 'GAME_FINAL'
  | 'EVENT_REMINDER'
  | 'SUB_MATCH'
  | 'SIDES_SET'
  | 'SHORT_HANDED'
  | 'AVAILABILITY_NUDGE'
  | 'AVAILABILITY_REMINDER'
  | 'CHAT_MESSAGE';

/** What the screen shows, as of the fact; keys depend on the type. */
export interface NotificationData {
  title?: string;
  startDate?: string;
  facilityName?: string | null;
  location?: string | null;
  timezone?: string | null;
  position?: string;
  changes?: string[];
  minutesBefore?: number;
  status?: 'ATTENDING' | 'WAITLISTED';
  teamId?: string;
  teamName?: string;
  rosterName?: string;
  seasonName?: string;
  homeName?: string;
  awayName?: string;
  homeScore?: number;
  awayScore?: number;
  scheduledAt?: string;
  seasonId?: string;
  /** EVENT_CANCELLED: why, in the organiser's words (null when they did not say). */
  reason?: string | null;
  /** SIDES_SET: the side the organiser put me on (docs/sides-and-bill.md). */
  side?: 'DARK' | 'LIGHT' | null;
  /** SHORT_HANDED: what the game-day check found missing (docs/pickup-night.md). */
  missing?: { skaters: number; goalies: number };
  /** SUB_MATCH: the places open when it matched (null = no limit). */
  open?: { skaters: number | null; goalies: number | null };
  // AVAILABILITY_NUDGE / AVAILABILITY_REMINDER (docs/availability.md): a
  // game of my roster I have not answered, with the game's `title`,
  // `startDate`, `timezone`, `facilityName` and `teamName` (mine) above.
  /** The roster whose board takes the answer (the link goes there). */
  rosterId?: string;
  /** The native game's id, or the imported game's event id. */
  gameId?: string;
  kind?: 'GAME' | 'EVENT';
  /** The other team, when known ("vs Bears"). */
  opponent?: string | null;
  /** AVAILABILITY_NUDGE: who nudged, as a display name ("Alex asks…"). */
  byName?: string | null;
  // CHAT_MESSAGE (docs/chat.md › Notifications): one per person and
  // conversation, replaced while unread; `title` above is the conversation's.
  /** The conversation (`roster-…`, `event-…`), where opening it goes. */
  conversationId?: string;
  /** The newest unread message's author, as a display name. */
  from?: string | null;
  /** The newest unread message, shortened by the server. */
  preview?: string | null;
  /** How many of my messages there are unread. */
  unread?: number;
}

export interface AppNotification {
  id: string;
  type: NotificationType;
  /** A CHAT_MESSAGE's link comes from `data.conversationId`, whatever its resource says. */
  resourceType: 'EVENT' | 'ROSTER' | 'GAME' | 'CONVERSATION';
  resourceId: string;
  data: NotificationData;
  createdAt: string;
  readAt: string | null;
}

/** The `notifications` topic's snapshot, kept current by the updates. */
export interface NotificationsDocument {
  items: AppNotification[];
  nextCursor: string | null;
  unread: number;
}

export type NotificationsUpdate =
  | { op: 'new'; notification: AppNotification; unread: number }
  | { op: 'read'; ids: string[]; unread: number }
  | { op: 'readAll'; unread: number };

export interface NotificationSettings {
  reminderMinutes: number[];
  /** Tell me when an event with open places matches my availability to sub (SUB_MATCH). */
  subMatches: boolean;
}
