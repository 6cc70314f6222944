// The organiser's record of a pickup on its event page: who dropped late
// at this event (its organisers and its linked teams' managers) and the
// series' record (everyone's for them, a player's own line). One element for the page to place;
// it re-reads both when the event's version moves (an answer changed).

import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { RinkEvent } from '../../../lib/api-types';
import { historyKeys } from '../api/history';
import { DroppedLateCard } from './dropped-late-card';
import { SeriesRecordCard } from './series-record-card';

export function PickupRecord({ event }: { event: RinkEvent }) {
  const readsHistory = Boolean(event.viewer?.canReadHistory);
  const queryClient = useQueryClient();
  const seenVersion = useRef(event.version);
  useEffect(() => {
    if (event.version === seenVersion.current) return;
    seenVersion.current = event.version;
    void queryClient.invalidateQueries({ queryKey: historyKeys.event(event.id) });
    if (event.seriesId) void queryClient.invalidateQueries({ queryKey: historyKeys.record(event.seriesId) });
  }, [event.version, event.id, event.seriesId, queryClient]);
  return (
    <>
      {readsHistory && <DroppedLateCard eventId={event.id} />}
      {event.seriesId && <SeriesRecordCard seriesId={event.seriesId} isOrganiser={readsHistory} />}
    </>
  );
}
