import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { lumaGenerationUrl, lumaHeaders, lumaUrl } from './luma-request.js';

const channel = (baseUrl: string): ChannelConfig => ({
  name: 'l',
  provider: 'luma',
  baseUrl,
  apiKey: 'k',
  headers: { 'X-Extra': '1' },
  timeoutMs: 1,
  options: {},
});

describe('luma request', () => {
  it('puts routes under /dream-machine/v1 once, whether the base URL has it or not', () => {
    expect(lumaUrl(channel('https://api.lumalabs.ai/'), '/generations/video')).toBe('https://api.lumalabs.ai/dream-machine/v1/generations/video');
    expect(lumaUrl(channel('https://api.lumalabs.ai/dream-machine/v1'), '/generations/video')).toBe(
      'https://api.lumalabs.ai/dream-machine/v1/generations/video',
    );
    expect(lumaGenerationUrl(channel('https://h'), 'a/b')).toBe('https://h/dream-machine/v1/generations/a%2Fb');
  });

  it('sends the key as a Bearer token with the channel’s own headers', () => {
    expect(lumaHeaders(channel('https://h'), true)).toEqual({
      accept: 'application/json',
      authorization: 'Bearer k',
      'content-type': 'application/json',
      'x-extra': '1',
    });
  });
});
