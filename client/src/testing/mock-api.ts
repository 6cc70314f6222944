// A tiny in-test API server: stubs global fetch and routes "METHOD /path"
// (with :params) to handlers, recording every call.

import { vi } from 'vitest';

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

interface Reply {
  __reply: true;
  status: number;
  body?: unknown;
}

/** Answer with a specific status (and optional JSON body). */
export function reply(status: number, body?: unknown): Reply {
  return { __reply: true, status, body };
}

export function apiError(status: number, code: string, message: string, details?: Record<string, string>): Reply {
  return reply(status, { error: { code, message, ...(details ? { details } : {}) } });
}

type Handler = (call: ApiCall, params: Record<string, string>) => unknown;

function match(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    const seg = a[i] ?? '';
    const val = b[i] ?? '';
    if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(val);
    else if (seg !== val) return null;
  }
  return params;
}

export function mockApi(routes: Record<string, Handler | object | Reply>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call: ApiCall = { method, path, query: url.searchParams, body, headers: (init?.headers ?? {}) as Record<string, string> };
    calls.push(call);
    for (const [key, handler] of Object.entries(routes)) {
      const [m, p] = key.split(' ');
      if (m !== method || !p) continue;
      const params = match(p, path);
      if (!params) continue;
      const out = typeof handler === 'function' ? await (handler as Handler)(call, params) : handler;
      if (out && typeof out === 'object' && '__reply' in out) {
        const r = out as Reply;
        return new Response(r.body === undefined ? null : JSON.stringify(r.body), {
          status: r.status,
          headers: { 'Content-Type': 'application/json' },
        });
      }
      if (out === undefined) return new Response(null, { status: 204 });
      return new Response(JSON.stringify(out), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify({ error: { code: 'not_found', message: `no mock for ${method} ${path}` } }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}
