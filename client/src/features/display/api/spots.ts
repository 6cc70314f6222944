// The rink lobby's live open spots: the public `spots:<facilityId>` topic
// (docs/statuses.md › Live). The facility itself (its name, and telling a
// wrong address from a server that is not up yet) is lib/facilities.ts's,
// read without a token.

import type { SpotsDocument } from '../../../lib/api-types';
import { useTopic } from '../../../lib/ws';

export const spotsTopic = (facilityId: string) => `spots:${facilityId}`;

/** Subscribes while mounted; the newest document, or null before the snapshot. */
export function useLiveSpots(facilityId: string): SpotsDocument | null {
  return useTopic<SpotsDocument>(facilityId ? spotsTopic(facilityId) : null)?.data ?? null;
}
