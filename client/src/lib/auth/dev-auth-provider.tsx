// Dev auth: the server signs a token for any name typed at the sign-in
// screen (AUTH_MODE=dev). The token lives in localStorage so a reload keeps
// you signed in.

import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, setTokenSource, setUnauthorizedHandler } from '../api';
import type { User } from '../api-types';
import { AuthContext, type AuthContextValue, type AuthStatus } from './auth-context';
import { ME_QUERY_KEY, useSessionUser } from './session-user';

export const DEV_TOKEN_STORAGE_KEY = 'rinkside.devToken';

function readToken(): string | null {
  try {
    return window.localStorage.getItem(DEV_TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(DEV_TOKEN_STORAGE_KEY, token);
    else window.localStorage.removeItem(DEV_TOKEN_STORAGE_KEY);
  } catch {
    // Storage disabled: the session simply ends with the tab.
  }
}

interface DevTokenResponse {
  token: string;
  user: User;
}

// Read straight from storage, so even the first queries of a reload carry it.
const getDevToken = async () => readToken();

export function DevAuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(readToken);
  // Set during render (idempotent) so the children's first queries carry the token.
  setTokenSource(getDevToken);
  const { query, setUser, refreshUser } = useSessionUser(token !== null);

  const signOut = useCallback(async () => {
    writeToken(null);
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  useEffect(() => {
    // A token the server no longer accepts (new database, new signing key).
    setUnauthorizedHandler(() => void signOut());
    return () => setUnauthorizedHandler(null);
  }, [signOut]);

  // Another tab signed in or out: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== DEV_TOKEN_STORAGE_KEY) return;
      queryClient.clear();
      setToken(e.newValue);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  const signInDev = useCallback(
    async (rawUsername: string) => {
      const username = rawUsername.trim();
      const res = await api.post<DevTokenResponse>(
        '/dev/token',
        { clerkId: `dev_${username}`, username },
        { anonymous: true },
      );
      if (!res?.token) throw new ApiError(500, 'internal', 'The server did not return a token.');
      queryClient.clear();
      writeToken(res.token);
      queryClient.setQueryData(ME_QUERY_KEY, res.user);
      setToken(res.token);
    },
    [queryClient],
  );

  let status: AuthStatus;
  if (!token) status = 'signed-out';
  else if (query.data) status = 'signed-in';
  else if (query.isError) status = 'error';
  else status = 'loading';

  const value = useMemo<AuthContextValue>(
    () => ({
      mode: 'dev',
      status,
      user: token ? (query.data ?? null) : null,
      error: query.error ?? null,
      getToken: getDevToken,
      signOut,
      setUser,
      refreshUser,
      signInDev,
    }),
    [status, token, query.data, query.error, signOut, setUser, refreshUser, signInDev],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
