import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { baseUrlError } from './check-base-url.js';
import { loadStoredChannels } from '../store/load-stored-channels.js';
import { validateChannel } from './validate-config.js';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';

describe('channel base URLs', () => {
  it('accepts http(s) URLs with or without a path', () => {
    for (const url of ['https://api.openai.com/v1', 'http://127.0.0.1:8080', 'https://gw.example/proxy/anthropic/']) {
      expect(baseUrlError(url, 'b')).toBeUndefined();
    }
  });

  it('refuses what would land in the wrong place once a path is appended', () => {
    expect(baseUrlError('https://api.example/v1?api-version=2024-10-01', 'b')).toMatch(/must not carry a query/);
    expect(baseUrlError('https://api.example?key=1', 'b')).toMatch(/must not carry a query/);
    expect(baseUrlError('https://api.example/v1?', 'b')).toMatch(/must not carry a query/);
    expect(baseUrlError('https://api.example/v1#top', 'b')).toMatch(/must not carry a fragment/);
    expect(baseUrlError('https://user:secret@api.example/v1', 'b')).toMatch(/must not carry credentials/);
    expect(baseUrlError('ftp://api.example/v1', 'b')).toMatch(/http\(s\) URL/);
    expect(baseUrlError('api.example/v1', 'b')).toMatch(/http\(s\) URL/);
  });

  it('names the channel field in a configured channel, echoing the URL only when it does not parse', () => {
    expect(() => validateChannel({ name: 'o', provider: 'openai', baseUrl: 'not a url' }, 'channels[0]', PROVIDER_DESCRIPTORS)).toThrow(
      'channels[0].baseUrl must be an http(s) URL, got "not a url"',
    );
    // A query or userinfo may hold a secret: named, not echoed.
    expect(() => validateChannel({ name: 'o', provider: 'openai', baseUrl: 'me:s3cret@localhost:8080/v1' }, 'channels[0]', PROVIDER_DESCRIPTORS)).toThrow(
      /^channels\[0\]\.baseUrl must be an http\(s\) URL$/,
    );
    for (const baseUrl of ['https://api.example/v1?key=s3cret', 'https://me:s3cret@api.example/v1']) {
      let message = '';
      try {
        validateChannel({ name: 'o', provider: 'openai', baseUrl }, 'channels[0]', PROVIDER_DESCRIPTORS);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^channels\[0\]\.baseUrl must not carry/);
      expect(message).not.toContain('s3cret');
    }
  });

  it('names the environment variable of a preset', () => {
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'localhost:8080/v1' } })).toThrow(
      /OPENAI_BASE_URL must be an http\(s\) URL/,
    );
    expect(() =>
      loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { ANTHROPIC_API_KEY: 'ak', ANTHROPIC_BASE_URL: 'https://proxy.example/anthropic#x' } }),
    ).toThrow(/ANTHROPIC_BASE_URL must not carry a fragment/);
  });

  it('still loads a channel stored before the rule, so that it never stops a start', async () => {
    const stored = { name: 'old', provider: 'openai', baseUrl: 'https://api.example/v1?x=1', models: ['m'] };
    const [loaded] = await loadStoredChannels({ list: async () => [stored as never] }, PROVIDER_DESCRIPTORS);
    expect(loaded.baseUrl).toBe('https://api.example/v1?x=1');
    await expect(loadStoredChannels({ list: async () => [{ ...stored, baseUrl: 'ftp://x' } as never] }, PROVIDER_DESCRIPTORS)).rejects.toThrow(
      /must be an http\(s\) URL/,
    );
  });
});
