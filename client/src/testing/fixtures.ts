import type { Facility, PublicUser, Team, User } from '../lib/api-types';

const NOW = '2026-11-01T18:00:00.000Z';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u-me',
    clerkId: 'dev_me',
    email: null,
    username: 'me',
    firstName: null,
    lastName: null,
    profileImage: null,
    bio: null,
    onboardingComplete: true,
    canCollectEventPayments: false,
    legalAcceptedAt: null,
    legalVersion: null,
    profileTypes: ['PLAYER'],
    createdAt: NOW,
    updatedAt: NOW,
    followerCount: 0,
    followingCount: 0,
    ...overrides,
  };
}

export function makePublicUser(overrides: Partial<PublicUser> = {}): PublicUser {
  return {
    id: 'u-bob',
    username: 'bob',
    firstName: 'Bob',
    lastName: 'Burns',
    profileImage: null,
    bio: null,
    profileTypes: ['PLAYER'],
    createdAt: NOW,
    followerCount: 0,
    followingCount: 0,
    isFollowing: false,
    ...overrides,
  };
}

export function makeFacility(overrides: Partial<Facility> = {}): Facility {
  return {
    id: 'f-1',
    name: 'Lakeside Ice',
    phoneNumber: null,
    email: null,
    website: null,
    imageUrl: null,
    description: null,
    timezone: 'America/Chicago',
    creatorId: 'u-me',
    ownerId: 'u-me',
    createdAt: NOW,
    updatedAt: NOW,
    followerCount: 0,
    isFollowing: false,
    ...overrides,
  };
}

export function makeTeam(overrides: Partial<Team> = {}): Team {
  return {
    id: 't-1',
    name: 'Frozen Assets',
    logoUrl: null,
    description: null,
    facilityId: null,
    creatorId: 'u-me',
    ownerId: 'u-me',
    createdAt: NOW,
    updatedAt: NOW,
    followerCount: 0,
    isFollowing: false,
    ...overrides,
  };
}
