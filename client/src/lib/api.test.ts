import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, buildUrl, setTokenSource, setUnauthorizedHandler } from './api';
import { apiError, mockApi, reply } from '../testing/mock-api';

beforeEach(() => {
  setTokenSource(async () => 'tok-1');
  setUnauthorizedHandler(null);
});

describe('api', () => {
  it('adds a fresh bearer token and JSON headers to each request', async () => {
    let n = 0;
    setTokenSource(async () => `tok-${++n}`);
    const server = mockApi({ 'PATCH /me': (c) => ({ echoed: c.body }) });
    await expect(api.patch('/me', { bio: 'hi' })).resolves.toEqual({ echoed: { bio: 'hi' } });
    await api.patch('/me', { bio: 'again' });
    expect(server.calls[0]?.headers).toMatchObject({ Authorization: 'Bearer tok-1', 'Content-Type': 'application/json' });
    expect(server.calls[1]?.headers).toMatchObject({ Authorization: 'Bearer tok-2' });
  });

  it('sends no token for anonymous calls', async () => {
    const server = mockApi({ 'POST /dev/token': { token: 't', user: {} } });
    await api.post('/dev/token', { clerkId: 'dev_x' }, { anonymous: true });
    expect(server.calls[0]?.headers.Authorization).toBeUndefined();
  });

  it('parses the error envelope into an ApiError with per-field messages', async () => {
    mockApi({
      'PATCH /me': apiError(422, 'validation_failed', 'invalid fields: username', { username: '3–30 letters' }),
    });
    const err = await api.patch('/me', { username: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.code).toBe('validation_failed');
    expect(e.message).toBe('invalid fields: username');
    expect(e.fieldErrors).toEqual({ username: '3–30 letters' });
  });

  it('reads per-field messages sent as `fields` too', async () => {
    mockApi({
      'PATCH /seasons/s-1': reply(422, { error: { code: 'validation', message: 'invalid fields: syncUrl', fields: { syncUrl: '`127.0.0.1` is a loopback address' } } }),
    });
    const err = (await api.patch('/seasons/s-1', { syncUrl: 'http://127.0.0.1/x.csv' }).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('validation');
    expect(err.fieldErrors).toEqual({ syncUrl: '`127.0.0.1` is a loopback address' });
  });

  it('turns a non-envelope failure into a generic ApiError', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })));
    const err = (await api.get('/me').catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('internal');
    expect(err.status).toBe(502);
  });

  it('reports an unreachable server as network_error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const err = (await api.get('/me').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('network_error');
  });

  it('answers undefined for 204 and calls the unauthorized handler on 401', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockApi({ 'PUT /users/:id/follow': reply(204), 'GET /me': apiError(401, 'unauthorized', 'token expired') });
    await expect(api.put('/users/u1/follow')).resolves.toBeUndefined();
    await expect(api.get('/me')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('builds query strings without empty values', () => {
    expect(buildUrl('/users', { q: 'bo b', limit: 20, cursor: null })).toBe('/api/v1/users?q=bo+b&limit=20');
    expect(buildUrl('/users', { q: '' })).toBe('/api/v1/users');
  });
});
