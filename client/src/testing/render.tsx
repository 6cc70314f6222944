// Render a screen with everything it expects around it: a fresh query
// client, a fresh jotai store, our auth context (never Clerk) and a router.

import { useCallback, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { setTokenSource } from '../lib/api';
import type { User } from '../lib/api-types';
import { AuthContext, type AuthContextValue, type AuthStatus } from '../lib/auth/auth-context';
import { makeUser } from './fixtures';

export const TEST_TOKEN = 'test-token';

export function TestAuthProvider({
  initialUser,
  signOut,
  children,
}: {
  initialUser: User | null;
  signOut?: () => Promise<void>;
  children: ReactNode;
}) {
  const [user, setUserState] = useState<User | null>(initialUser);
  const setUser = useCallback((u: User) => setUserState(u), []);
  const getToken = useCallback(async () => (user ? TEST_TOKEN : null), [user]);
  setTokenSource(getToken);
  const status: AuthStatus = user ? 'signed-in' : 'signed-out';
  const value = useMemo<AuthContextValue>(
    () => ({
      mode: 'dev',
      status,
      user,
      error: null,
      getToken,
      signOut: signOut ?? (async () => setUserState(null)),
      setUser,
      refreshUser: async () => {},
      signInDev: vi.fn(async () => {}),
    }),
    [status, user, getToken, signOut, setUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export interface RenderOptions {
  user?: User | null;
  /** The URL to start at. */
  route?: string;
  /** The route pattern the element is mounted at (for useParams). */
  path?: string;
  /** Extra routes, e.g. where a form navigates after success. */
  extraRoutes?: Array<{ path: string; element: ReactElement }>;
  store?: ReturnType<typeof createStore>;
}

export function renderWithProviders(ui: ReactElement, opts: RenderOptions = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
  const store = opts.store ?? createStore();
  const user = opts.user === undefined ? makeUser() : opts.user;
  const result = render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={store}>
        <TestAuthProvider initialUser={user}>
          <MemoryRouter initialEntries={[opts.route ?? '/']}>
            <Routes>
              <Route path={opts.path ?? '*'} element={ui} />
              {opts.extraRoutes?.map((r) => <Route key={r.path} path={r.path} element={r.element} />)}
            </Routes>
          </MemoryRouter>
        </TestAuthProvider>
      </JotaiProvider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient, store };
}
