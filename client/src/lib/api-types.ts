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
