// Owns the tab's LiveSocket: starts it once the auth state is known and
// reconnects whenever the identity changes, so `auth` is always its first frame.

import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../lib/auth/auth-context';
import { defaultSocketUrl, LiveSocket, LiveSocketContext, type LiveSocketOptions } from '../lib/ws';
import { RefreshOnReconnect } from './refresh-on-reconnect';

/**
 * An arena display must say "reconnecting" within seconds of losing the
 * server, also when the network dies silently (no close frame): it pings
 * every 2 s, so 5 s of silence count as a dead connection, and it never
 * waits more than 5 s between reconnect attempts. Other tabs keep the
 * gentler defaults.
 */
const DISPLAY_SOCKET: Partial<LiveSocketOptions> = { heartbeatIntervalMs: 2_000, backoffMaxMs: 5_000 };

function isDisplayTab(): boolean {
  return typeof window !== 'undefined' && window.location.pathname.startsWith('/display/');
}

export function LiveConnection({ children }: { children: ReactNode }) {
  const { status, user, getToken } = useAuth();
  const [socket] = useState(() => new LiveSocket({ url: defaultSocketUrl(), getToken, ...(isDisplayTab() ? DISPLAY_SOCKET : {}) }));
  // The socket asks for a token per (re)connection: always the auth module's current way of getting one.
  useLayoutEffect(() => socket.setTokenSource(getToken), [socket, getToken]);

  const identity = status === 'loading' ? null : (user?.id ?? 'anonymous');
  const lastIdentity = useRef<string | null>(null);

  useEffect(() => {
    if (identity === null) return;
    if (lastIdentity.current === null) socket.start();
    else if (lastIdentity.current !== identity) socket.reauthenticate();
    lastIdentity.current = identity;
  }, [identity, socket]);

  useEffect(
    () => () => {
      socket.stop();
      lastIdentity.current = null;
    },
    [socket],
  );

  return (
    <LiveSocketContext.Provider value={socket}>
      <RefreshOnReconnect />
      {children}
    </LiveSocketContext.Provider>
  );
}
