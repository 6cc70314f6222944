// The one way the client talks REST to the server: adds a fresh bearer token,
// speaks JSON, and turns the error envelope of CONTRACT.md into `ApiError`.

export const API_BASE = '/api/v1';

/** Field name → human message, as sent in `details` with `validation_failed`. */
export type FieldErrors = Record<string, string>;

export class ApiError extends Error {
  readonly status: number;
  /** The envelope's stable snake_case code, or `network_error` when no answer came. */
  readonly code: string;
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Per-field messages for forms; empty unless the server rejected fields. */
  get fieldErrors(): FieldErrors {
    const out: FieldErrors = {};
    for (const [field, msg] of Object.entries(this.details)) {
      if (typeof msg === 'string') out[field] = capitalised(msg);
      else if (Array.isArray(msg) && typeof msg[0] === 'string') out[field] = capitalised(msg.join(' '));
    }
    return out;
  }
}

type TokenSource = () => Promise<string | null>;

// Set by the auth module once it knows how to get tokens. Clerk tokens live
// 60 s, so we ask for one per request instead of keeping it here.
let tokenSource: TokenSource = async () => null;
let onUnauthorized: (() => void) | null = null;

export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

/** Called when a signed request comes back 401 (expired or revoked session). */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Send without a token (public reads, the dev sign-in). Default: with. */
  anonymous?: boolean;
  /** Extra request headers, e.g. `Idempotency-Key` for retry-safe commands. */
  headers?: Record<string, string>;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  let url = path.startsWith('/api/') ? path : `${API_BASE}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
    }
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}

async function parseError(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy page, an empty body): fall through to a generic error.
  }
  const env = (body as { error?: { code?: unknown; message?: unknown; details?: unknown; fields?: unknown } } | null)?.error;
  if (env && typeof env.code === 'string') {
    // CONTRACT.md puts field messages in `details`; docs/sync.md speaks of
    // `fields` for the same thing (a refused `syncUrl`): either is read.
    const raw = env.details && typeof env.details === 'object' ? env.details : env.fields && typeof env.fields === 'object' ? env.fields : {};
    const details = raw as Record<string, unknown>;
    const message = typeof env.message === 'string' && env.message ? env.message : res.statusText;
    return new ApiError(res.status, env.code, message, details);
  }
  return new ApiError(res.status, res.status >= 500 ? 'internal' : 'http_error', res.statusText || `HTTP ${res.status}`);
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (!opts.anonymous) {
    const token = await tokenSource();
    if (token) headers.Authorization = `Bearer ${token}`;
  }

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'Could not reach Rinkside. Check your connection.');
  }

  if (!res.ok) {
    const error = await parseError(res);
    if (res.status === 401 && !opts.anonymous) onUnauthorized?.();
    throw error;
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A file the server makes for the signed-in person (e.g. an `.ics`), as a Blob. */
export async function requestBlob(path: string, opts: Pick<RequestOptions, 'signal'> = {}): Promise<Blob> {
  const headers: Record<string, string> = {};
  const token = await tokenSource();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(buildUrl(path), { headers, signal: opts.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'Could not reach Rinkside. Check your connection.');
  }
  if (!res.ok) {
    const error = await parseError(res);
    if (res.status === 401) onUnauthorized?.();
    throw error;
  }
  return res.blob();
}

export const api = {
  get: <T>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...opts, method: 'GET' }),
  post: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T = void>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'DELETE' }),
};

/** `text` with its first letter capitalised: every message a person reads starts with a capital. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A short sentence for any thrown value, for banners and toasts (capitalised, whoever wrote it). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return capitalised(err.message);
  return 'Something went wrong.';
}
