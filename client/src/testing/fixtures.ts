import type { EventViewer, Facility, PublicUser, RinkEvent, Team, User } from '../lib/api-types';

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
    currency: 'USD',
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

export function makeViewer(overrides: Partial<EventViewer> = {}): EventViewer {
  return {
    isOrganiser: false,
    // The organisers read the history (and so do linked teams' managers: say so with an override).
    canReadHistory: overrides.isOrganiser ?? false,
    canHost: false,
    canCollectPayments: false,
    status: null,
    waitlistRank: null,
    position: null,
    isPaid: null,
    side: null,
    owesCents: null,
    paidCents: null,
    creditCents: null,
    currency: null,
    isRegular: false,
    ...overrides,
  };
}

export function makeEvent(overrides: Partial<RinkEvent> = {}): RinkEvent {
  return {
    id: 'e-1',
    title: 'Noon skate',
    description: null,
    location: null,
    startDate: '2030-12-01T17:00:00.000Z',
    endDate: '2030-12-01T18:30:00.000Z',
    imageUrl: null,
    creatorId: 'u-org',
    facilityId: null,
    hostedByFacility: false,
    seasonId: null,
    externalHomeTeamName: null,
    externalAwayTeamName: null,
    externalRink: null,
    homeScore: null,
    awayScore: null,
    eventType: 'PRACTICE',
    maxSkaters: 10,
    maxGoalies: 2,
    groupConfig: null,
    version: 1,
    cancelledAt: null,
    cancelReason: null,
    createdAt: NOW,
    updatedAt: NOW,
    teams: [],
    seriesId: null,
    rsvpRules: { lateWindowMinutes: null, openToAllAt: null, closesAt: null, minSkaters: null, minGoalies: null, shortCheckAt: null },
    viewer: makeViewer(),
    ...overrides,
  };
}
