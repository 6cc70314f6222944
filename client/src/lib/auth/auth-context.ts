// Our own auth surface. Everything outside lib/auth uses this, never Clerk,
// so the app and its tests do not care which sign-in is configured.

import { createContext, useContext, type ComponentType } from 'react';
import type { User } from '../api-types';

export type AuthStatus = 'loading' | 'signed-out' | 'signed-in' | 'error';

export interface AuthContextValue {
  mode: 'clerk' | 'dev';
  /** `signed-in` means the token works *and* `user` is loaded. */
  status: AuthStatus;
  /** The signed-in user (`GET /me`), kept current after profile edits. */
  user: User | null;
  /** Why loading the user failed, when `status` is `error`. */
  error: Error | null;
  /** A fresh token for each call (Clerk tokens live 60 s); null when signed out. */
  getToken: () => Promise<string | null>;
  signOut: () => Promise<void>;
  /** Replace the cached user with a server answer (after PATCH /me and friends). */
  setUser: (user: User) => void;
  refreshUser: () => Promise<void>;
  /** Dev auth only: sign in (creating the account if new) by username. */
  signInDev?: (username: string) => Promise<void>;
  /** Clerk only: the hosted sign-in widget to show on the sign-in page. */
  SignInWidget?: ComponentType;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** For screens that only render when signed in. */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser needs a signed-in user');
  return user;
}
