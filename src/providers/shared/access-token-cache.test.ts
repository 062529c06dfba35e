import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokenCache } from './access-token-cache.js';

afterEach(() => vi.useRealTimers());

describe('AccessTokenCache', () => {
  it('fetches once for every call that waits, and serves the cached token until its renewal time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new AccessTokenCache();
    let fetches = 0;
    const fetch = async () => ({ token: `t${++fetches}`, refreshAt: Date.now() + 1000 });
    expect(await Promise.all([cache.get('k', fetch), cache.get('k', fetch), cache.get('k', fetch)])).toEqual(['t1', 't1', 't1']);
    expect(await cache.get('k', fetch)).toBe('t1');
    vi.setSystemTime(Date.now() + 1001);
    expect(await cache.get('k', fetch)).toBe('t2');
    expect(await cache.get('other', fetch)).toBe('t3');
  });

  it('does not keep a failed fetch: the next call tries again', async () => {
    const cache = new AccessTokenCache();
    let calls = 0;
    const fetch = async () => {
      calls++;
      if (calls === 1) throw new Error('refused');
      return { token: 'ok', refreshAt: Date.now() + 60_000 };
    };
    await expect(cache.get('k', fetch)).rejects.toThrow('refused');
    expect(await cache.get('k', fetch)).toBe('ok');
  });
});
