// Wire types shared by every feature. Field names and enum values are the
// seed's, exactly as the server sends them (see shared/CONTRACT.md).

export const PROFILE_TYPES = [
  'PLAYER',
  'COACH',
  'REFEREE',
  'SCORE_KEEPER',
  'FACILITY_MANAGER',
  'FAN',
] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

export const HOCKEY_POSITIONS = [
  'CENTER',
  'LEFT_WING',
  'RIGHT_WING',
  'LEFT_DEFENSE',
  'RIGHT_DEFENSE',
  'GOALIE',
] as const;
export type HockeyPosition = (typeof HOCKEY_POSITIONS)[number];

export const SKILL_LEVELS = ['BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'PROFESSIONAL'] as const;
export type SkillLevel = (typeof SKILL_LEVELS)[number];

/** The signed-in user, as `GET /me` answers. */
export interface User {
  id: string;
  clerkId: string;
  email: string | null;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImage: string | null;
  bio: string | null;
  onboardingComplete: boolean;
  canCollectEventPayments: boolean;
  legalAcceptedAt: string | null;
  legalVersion: string | null;
  profileTypes: ProfileType[];
  createdAt: string;
  updatedAt: string;
  followerCount: number;
  followingCount: number;
}

export interface PlayerPosition {
  id: string;
  position: HockeyPosition;
  skillLevel: SkillLevel;
  isPreferred: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Anyone's profile as others see it. */
export interface PublicUser {
  id: string;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImage: string | null;
  bio: string | null;
  profileTypes: ProfileType[];
  createdAt: string;
  followerCount: number;
  followingCount: number;
  isFollowing: boolean;
  /** Only on `GET /users/{id}`. */
  positions?: PlayerPosition[];
}

export interface Facility {
  id: string;
  name: string;
  phoneNumber: string | null;
  email: string | null;
  website: string | null;
  imageUrl: string | null;
  description: string | null;
  timezone: string;
  creatorId: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  followerCount: number;
  isFollowing: boolean;
}

export interface Team {
  id: string;
  name: string;
  logoUrl: string | null;
  description: string | null;
  facilityId: string | null;
  creatorId: string;
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  followerCount: number;
  isFollowing: boolean;
}

/** Every list endpoint pages by keyset: pass `nextCursor` back as `cursor`. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// ── Events ────────────────────────────────────────────────────────────────

export const EVENT_TYPES = ['GAME', 'PRACTICE', 'PUBLIC_SKATING', 'WATCH_PARTY', 'OTHER', 'EXTERNAL_GAME'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type TeamRole = 'HOME' | 'AWAY';

/** The viewer's own answer to an event. */
export type RsvpStatus = 'ATTENDING' | 'WAITLISTED' | 'DECLINED' | 'REMOVED';

export interface EventGroup {
  name: string;
  /** `#rrggbb`. */
  color: string;
}

/** How the event page splits attendees into groups (jersey colours). */
export interface GroupConfig {
  /** 2–4 groups, in display order. */
  groups: EventGroup[];
  balanceBy: 'POSITION' | 'ORDER';
}

export interface EventTeamLink {
  teamId: string;
  teamName: string;
  role: TeamRole;
}

/** The viewer's standing, on single reads (`GET /events/{id}`, create, edit). */
export interface EventViewer {
  isOrganiser: boolean;
  /** Organiser who has payment collection turned on. */
  canCollectPayments: boolean;
  status: RsvpStatus | null;
  waitlistRank: number | null;
  position: HockeyPosition | null;
  /** Own payment state; null when not attending. */
  isPaid: boolean | null;
}

/** An event (named so it does not shadow the DOM's `Event`). */
export interface RinkEvent {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  startDate: string;
  endDate: string | null;
  imageUrl: string | null;
  creatorId: string;
  facilityId: string | null;
  seasonId: string | null;
  externalHomeTeamName: string | null;
  externalAwayTeamName: string | null;
  externalRink: string | null;
  homeScore: number | null;
  awayScore: number | null;
  eventType: EventType;
  /** Null = unlimited. */
  maxSkaters: number | null;
  maxGoalies: number | null;
  groupConfig: GroupConfig | null;
  /** The attendees document's version (the `seq` of the `event:ID` topic). */
  version: number;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
  teams: EventTeamLink[];
  /** Only on single reads by a signed-in viewer. */
  viewer?: EventViewer;
}

export interface Season {
  id: string;
  facilityId: string;
  facilityName: string;
  name: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
}
