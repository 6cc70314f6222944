// The app's runner for my chat messages that did not go out (api/outbox.ts):
// when the socket is back, or the browser says the network is, every unsent
// one goes again with the key it was written with, so it is posted once
// whichever attempt got through. Only on the way back, not whenever the
// socket is live: a send the server keeps failing waits for a Retry rather
// than going round in a loop. Mounted once, by the shell; renders nothing.

import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useStore } from 'jotai';
import { useConnectionState } from '../../../lib/ws';
import { retrySends } from '../api/outbox';

export function ChatOutbox() {
  const store = useStore();
  const queryClient = useQueryClient();
  const connection = useConnectionState();
  const last = useRef(connection);

  useEffect(() => {
    const was = last.current;
    last.current = connection;
    if (connection === 'live' && was !== 'live') retrySends({ store, queryClient });
  }, [connection, store, queryClient]);

  useEffect(() => {
    const online = () => retrySends({ store, queryClient });
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [store, queryClient]);

  return null;
}
