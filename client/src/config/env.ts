// Build-time configuration, read and checked once at start.

function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

const clerkPublishableKey = optionalString(import.meta.env.VITE_CLERK_PUBLISHABLE_KEY);
if (clerkPublishableKey && !/^pk_(test|live)_/.test(clerkPublishableKey)) {
  throw new Error('VITE_CLERK_PUBLISHABLE_KEY must look like pk_test_… or pk_live_…');
}

export const env = {
  /** Set → sign in with Clerk; unset → the server's dev auth (type a name). */
  clerkPublishableKey,
} as const;
