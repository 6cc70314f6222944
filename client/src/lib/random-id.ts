// Ids a client makes up for itself: command ids on the socket and
// Idempotency-Keys on REST. Unique enough that two never meet on the server.

/** A random id; `prefix` only shows in the fallback, for telling ids apart in logs. */
export function randomId(prefix: string): string {
  // randomUUID only exists on secure contexts; a LAN address over http is not one.
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
