import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, setCsrfToken, setUnauthorizedHandler } from './api.js';

function stubFetch(status: number, body: unknown) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(null);
  setUnauthorizedHandler(() => {});
});

describe('api', () => {
  it('sends same-origin credentials, JSON, and the CSRF token on state-changing requests only', async () => {
    setCsrfToken('csrf-1');
    const calls = stubFetch(200, { ok: true });
    await api('POST', '/keys', { name: 'k' });
    await api('GET', '/keys');
    expect(calls[0].url).toBe('/admin/v1/keys');
    expect(calls[0].init).toMatchObject({ method: 'POST', credentials: 'same-origin', body: '{"name":"k"}' });
    expect(calls[0].init.headers).toMatchObject({ 'x-csrf-token': 'csrf-1', 'content-type': 'application/json' });
    expect(calls[1].init.headers).not.toHaveProperty('x-csrf-token');
    expect(calls[1].init.headers).not.toHaveProperty('content-type');
  });

  it('returns undefined for 204', async () => {
    stubFetch(204, undefined);
    await expect(api('DELETE', '/session')).resolves.toBeUndefined();
  });

  it('throws the API error message and code', async () => {
    stubFetch(409, { error: { code: 'conflict', message: 'A channel named c1 exists.', requestId: 'r' } });
    await expect(api('POST', '/channels', {})).rejects.toMatchObject({ status: 409, code: 'conflict', message: 'A channel named c1 exists.' });
  });

  it('says what the status means when the body is not the error shape, 429 included', async () => {
    stubFetch(429, 'nope');
    const error = await api('POST', '/session', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/Too many attempts/);
  });

  it('401 signs out, unless the caller handles it', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    stubFetch(401, { error: { code: 'authentication', message: 'Sign in.' } });
    await expect(api('GET', '/keys')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    await expect(api('POST', '/session', {}, { quiet401: true })).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('a network failure is an ApiError with a plain sentence', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(api('GET', '/keys')).rejects.toMatchObject({ code: 'network', message: expect.stringMatching(/could not be reached/) });
  });
});
