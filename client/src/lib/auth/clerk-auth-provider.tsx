// Clerk sign-in. The only file in the client that imports @clerk/react; it
// is loaded lazily, so dev builds never download Clerk.

import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { ClerkProvider, Show, SignIn, useAuth as useClerkAuth } from '@clerk/react';
import { useQueryClient } from '@tanstack/react-query';
import { setTokenSource, setUnauthorizedHandler } from '../api';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context';
import { useSessionUser } from './session-user';

function ClerkSignInWidget() {
  return (
    <Show when="signed-out">
      <SignIn routing="hash" />
    </Show>
  );
}

function ClerkBridge({ children }: { children: ReactNode }) {
  const clerk = useClerkAuth();
  const queryClient = useQueryClient();
  const signedIn = clerk.isLoaded && clerk.isSignedIn === true;
  const { query, setUser, refreshUser } = useSessionUser(signedIn);

  // Always ask Clerk: it hands out a fresh token when the cached one is near
  // its 60 s expiry. Never keep a token around ourselves. (Clerk's getter is
  // stable for its client, so ours is too.)
  const { getToken: clerkGetToken } = clerk;
  const getToken = useCallback(async () => {
    try {
      return (await clerkGetToken()) ?? null;
    } catch {
      return null;
    }
  }, [clerkGetToken]);
  // Set during render so the children's first queries already have it.
  setTokenSource(getToken);

  const signOut = useCallback(async () => {
    await clerk.signOut();
    queryClient.clear();
  }, [clerk, queryClient]);

  useEffect(() => {
    setUnauthorizedHandler(() => void refreshUser());
    return () => setUnauthorizedHandler(null);
  }, [refreshUser]);

  // A different Clerk user in this tab: drop everything cached for the last one.
  const lastUserId = useRef(clerk.userId);
  useEffect(() => {
    if (lastUserId.current !== clerk.userId) {
      lastUserId.current = clerk.userId;
      queryClient.clear();
    }
  }, [clerk.userId, queryClient]);

  let status: AuthStatus;
  if (!clerk.isLoaded) status = 'loading';
  else if (!clerk.isSignedIn) status = 'signed-out';
  else if (query.data) status = 'signed-in';
  else if (query.isError) status = 'error';
  else status = 'loading';

  const value = useMemo<AuthContextValue>(
    () => ({
      mode: 'clerk',
      status,
      user: signedIn ? (query.data ?? null) : null,
      error: query.error ?? null,
      getToken,
      signOut,
      setUser,
      refreshUser,
      SignInWidget: ClerkSignInWidget,
    }),
    [status, signedIn, query.data, query.error, getToken, signOut, setUser, refreshUser],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export default function ClerkAuthProvider({
  publishableKey,
  children,
}: {
  publishableKey: string;
  children: ReactNode;
}) {
  return (
    <ClerkProvider publishableKey={publishableKey} afterSignOutUrl="/">
      <ClerkBridge>{children}</ClerkBridge>
    </ClerkProvider>
  );
}
