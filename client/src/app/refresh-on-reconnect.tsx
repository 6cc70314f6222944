// When the tab's socket comes back after it was down (a server restart, a
// dropped network), everything on screen may be stale and any read that
// failed meanwhile shows an error: read them all again. Without this a page
// whose query failed during the outage stayed on "Could not load…" while
// the header said Live (issue 26).

import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useConnectionState } from '../lib/ws';

export function RefreshOnReconnect() {
  const connection = useConnectionState();
  const queryClient = useQueryClient();
  // Only a return counts: the first connection of the tab has nothing stale.
  const wasDown = useRef(false);
  useEffect(() => {
    if (connection === 'reconnecting' || connection === 'offline') {
      wasDown.current = true;
      return;
    }
    if (connection === 'live' && wasDown.current) {
      wasDown.current = false;
      // Active queries (errored ones too) refetch now; the rest when next shown.
      void queryClient.invalidateQueries();
    }
  }, [connection, queryClient]);
  return null;
}
