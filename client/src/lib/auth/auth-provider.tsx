// Picks the sign-in mechanism: Clerk when a publishable key is configured,
// otherwise the server's dev auth.

import { lazy, Suspense, type ReactNode } from 'react';
import { env } from '../../config/env';
import { DevAuthProvider } from './dev-auth-provider';

const ClerkAuthProvider = lazy(() => import('./clerk-auth-provider'));

export function AuthProvider({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  if (env.clerkPublishableKey) {
    return (
      <Suspense fallback={fallback}>
        <ClerkAuthProvider publishableKey={env.clerkPublishableKey}>{children}</ClerkAuthProvider>
      </Suspense>
    );
  }
  return <DevAuthProvider>{children}</DevAuthProvider>;
}
