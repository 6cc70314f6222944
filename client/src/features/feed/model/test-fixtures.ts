// Feed items for tests.

import type { UserSummary } from '../../../lib/api-types';
import type { FeedItem } from './types';

export function person(id: string, firstName: string, lastName: string | null = null): UserSummary {
  return { id, username: firstName.toLowerCase(), firstName, lastName, profileImage: null };
}

export function feedItem(over: Partial<FeedItem> & { id: string }): FeedItem {
  return {
    type: 'POST_CREATED',
    userId: 'u-me',
    actorId: null,
    resourceId: `r-${over.id}`,
    resourceType: 'POST',
    aggregatedData: { actorIds: [], count: 1 },
    resource: null,
    actors: [],
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T10:00:00Z',
    ...over,
  };
}
