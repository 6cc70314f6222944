// Owns the tab's LiveSocket: starts it once the auth state is known and
// reconnects whenever the identity changes, so `auth` is always its first frame.

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../lib/auth/auth-context';
import { defaultSocketUrl, LiveSocket, LiveSocketContext } from '../lib/ws';

export function LiveConnection({ children }: { children: ReactNode }) {
  const { status, user, getToken } = useAuth();
  const getTokenRef = useRef(getToken);
  getTokenRef.current = getToken;
  const [socket] = useState(() => new LiveSocket({ url: defaultSocketUrl(), getToken: () => getTokenRef.current() }));

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

  return <LiveSocketContext.Provider value={socket}>{children}</LiveSocketContext.Provider>;
}
