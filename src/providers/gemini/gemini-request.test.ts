import { describe, expect, it } from 'vitest';
import type { Attempt, ChannelConfig } from '../types.js';
import { geminiHeaders, geminiModelUrl } from './gemini-request.js';

function attempt(channel: Partial<ChannelConfig>, upstreamModel = 'gemini-2.5-flash'): Attempt {
  return {
    channel: { name: 'g', provider: 'gemini', baseUrl: '', apiKey: 'k', headers: {}, timeoutMs: 1000, options: {}, ...channel },
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'r',
  };
}

describe('geminiModelUrl', () => {
  it('defaults to the Google endpoint and v1beta', () => {
    expect(geminiModelUrl(attempt({}), 'generateContent')).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(geminiModelUrl(attempt({}), 'streamGenerateContent')).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  it('honours the apiVersion option, a versioned base URL and a models/ prefix', () => {
    expect(geminiModelUrl(attempt({ baseUrl: 'http://h:1/', options: { apiVersion: 'v1' } }), 'generateContent')).toBe(
      'http://h:1/v1/models/gemini-2.5-flash:generateContent',
    );
    expect(geminiModelUrl(attempt({ baseUrl: 'http://h:1/v1beta' }, 'models/gemini-2.0-flash'), 'generateContent')).toBe(
      'http://h:1/v1beta/models/gemini-2.0-flash:generateContent',
    );
  });

  it('finding 2: refuses a model id that is not one plain path segment before anything is sent', () => {
    for (const model of ['gemini-2.5-flash/../gemini-2.5-pro', 'models/x/../../v1beta/cachedContents?', 'x%2F..', '..', 'x:countTokens', 'x#y']) {
      expect(() => geminiModelUrl(attempt({}, model), 'generateContent')).toThrow(expect.objectContaining({ kind: 'invalid_request', code: 'invalid_model' }));
    }
  });
});

describe('geminiHeaders', () => {
  it('sends the key in x-goog-api-key with the channel headers', () => {
    expect(geminiHeaders(attempt({ apiKey: 'secret', headers: { 'x-extra': '1' } }))).toEqual({
      'content-type': 'application/json',
      'x-extra': '1',
      'x-goog-api-key': 'secret',
    });
  });
});
