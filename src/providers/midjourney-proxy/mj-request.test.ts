import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { mjHeaders, mjUrl } from './mj-request.js';

const channel = (baseUrl: string, extra: Partial<ChannelConfig> = {}): ChannelConfig => ({
  name: 'mj',
  provider: 'midjourney-proxy',
  baseUrl,
  apiKey: 'secret-1',
  headers: {},
  timeoutMs: 1000,
  options: {},
  ...extra,
});

describe('mjUrl', () => {
  it('appends /mj to the host, once', () => {
    expect(mjUrl(channel('https://proxy.example'), '/submit/imagine')).toBe('https://proxy.example/mj/submit/imagine');
    expect(mjUrl(channel('https://proxy.example/'), '/task/1/fetch')).toBe('https://proxy.example/mj/task/1/fetch');
    expect(mjUrl(channel('https://proxy.example/mj'), '/submit/imagine')).toBe('https://proxy.example/mj/submit/imagine');
    expect(mjUrl(channel('https://proxy.example/base/mj/'), '/task/1/fetch')).toBe('https://proxy.example/base/mj/task/1/fetch');
    expect(mjUrl(channel('https://proxy.example/mjx'), '/task/1/fetch')).toBe('https://proxy.example/mjx/mj/task/1/fetch');
  });
});

describe('mjHeaders', () => {
  it('sends the secret as mj-api-secret plus the channel headers', () => {
    expect(mjHeaders(channel('http://x', { headers: { 'X-Tenant': 't1' } }), true)).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      'mj-api-secret': 'secret-1',
      'x-tenant': 't1',
    });
    expect(mjHeaders(channel('http://x', { apiKey: '' }), false)).toEqual({ accept: 'application/json' });
  });
});
