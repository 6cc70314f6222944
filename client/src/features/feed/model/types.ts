// The feed and posts as the server sends them (CONTRACT.md › Feed and posts).

import type { EventType, Page, UserSummary } from '../../../lib/api-types';

export const FEED_ITEM_TYPES = [
  'EVENT_CREATED',
  'EVENT_UPDATED',
  'WELCOME_MESSAGE',
  'FIRST_FOLLOW_ENCOURAGEMENT',
  'USER_JOINED_TEAM',
  'TEAM_ROSTER_UPDATED',
  'SEASON_STARTED',
  'EXTERNAL_GAME_IMPORTED',
  'POST_CREATED',
] as const;
export type FeedItemType = (typeof FEED_ITEM_TYPES)[number];

export type FeedResourceType = 'EVENT' | 'ROSTER' | 'SEASON' | 'POST' | 'USER';

export type EventChange = 'TIME' | 'PLACE' | 'CANCELLED' | 'LIMITS';

export interface NamedRef {
  id: string;
  name: string;
}

export interface FollowSuggestions {
  facilities: NamedRef[];
  teams: NamedRef[];
  people: UserSummary[];
}

export interface AggregatedData {
  /** Newest first, at most 10. */
  actorIds: string[];
  count: number;
  changes?: EventChange[];
  suggestions?: FollowSuggestions;
  /** EXTERNAL_GAME_IMPORTED about a season: how many games the sync added. */
  games?: number;
}

export interface FeedEventResource {
  id: string;
  title: string;
  eventType: EventType;
  startDate: string;
  endDate: string | null;
  facilityId: string | null;
  facilityName: string | null;
  location: string | null;
  cancelled: boolean;
  maxSkaters: number | null;
  maxGoalies: number | null;
  attendingSkaters: number;
  attendingGoalies: number;
  skaterSpotsLeft: number | null;
  goalieSpotsLeft: number | null;
}

export interface FeedRosterResource {
  id: string;
  name: string;
  teamId: string;
  teamName: string;
  seasonId: string | null;
  seasonName: string | null;
}

export interface FeedSeasonResource {
  id: string;
  name: string;
  startDate: string;
  endDate: string | null;
  facilityId: string | null;
  facilityName: string | null;
}

export interface FeedPostResource {
  id: string;
  content: string;
  authorId: string;
  authorName: string | null;
  createdAt: string;
  updatedAt: string;
}

export type FeedResource = FeedEventResource | FeedRosterResource | FeedSeasonResource | FeedPostResource | UserSummary;

export interface FeedItem {
  id: string;
  type: FeedItemType;
  userId: string;
  actorId: string | null;
  resourceId: string;
  resourceType: FeedResourceType;
  aggregatedData: AggregatedData;
  /** A summary of what the item is about; null when it is gone. */
  resource: FeedResource | null;
  /** The newest actors first, as `aggregatedData.actorIds`. */
  actors: UserSummary[];
  createdAt: string;
  updatedAt: string;
}

export type FeedPage = Page<FeedItem>;

/** A `feed` update that takes an item away: its post was deleted (docs/realtime.md). */
export interface FeedRemoval {
  id: string;
  removed: true;
}

/** What a `feed` update carries: an item, new or changed, or a removal. */
export type FeedPush = FeedItem | FeedRemoval;

export interface Post {
  id: string;
  content: string;
  authorId: string;
  createdAt: string;
  updatedAt: string;
}
