import type { AppNotification } from './types';

export function makeNotification(over: Partial<AppNotification> = {}): AppNotification {
  return {
    id: 'n-1',
    type: 'WAITLIST_PROMOTED',
    resourceType: 'EVENT',
    resourceId: 'e-1',
    data: { title: 'Tuesday pickup', startDate: '2026-12-02T02:30:00.000Z', facilityName: 'Maple Arena', timezone: 'America/Toronto', position: 'CENTER' },
    createdAt: '2026-11-24T18:00:00.000Z',
    readAt: null,
    ...over,
  };
}
