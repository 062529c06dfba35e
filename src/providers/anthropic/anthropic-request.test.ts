import { describe, expect, it } from 'vitest';
import { anthropicHeaders, anthropicMessagesUrl } from './anthropic-request.js';
import type { Attempt, ChannelConfig } from '../types.js';

function testAttempt(channel: Partial<ChannelConfig> = {}, upstreamModel = 'claude-sonnet-4-20250514'): Attempt {
  const base: ChannelConfig = {
    name: 'anthropic-test',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKey: 'sk-ant-test',
    headers: {},
    timeoutMs: 5_000,
    options: {},
  };
  return { channel: { ...base, ...channel }, upstreamModel, signal: new AbortController().signal, requestId: 'req_test' };
}

describe('anthropic request url and headers', () => {
  it('appends /v1/messages to the base URL (trailing slashes ignored, default api.anthropic.com)', () => {
    expect(anthropicMessagesUrl(testAttempt({ baseUrl: 'http://127.0.0.1:9000/' }))).toBe('http://127.0.0.1:9000/v1/messages');
    expect(anthropicMessagesUrl(testAttempt({ baseUrl: '' }))).toBe('https://api.anthropic.com/v1/messages');
  });

  it('sends the key, the default version and channel headers', () => {
    expect(anthropicHeaders(testAttempt({ headers: { 'x-org': 'o1' } }))).toEqual({
      'x-org': 'o1',
      'content-type': 'application/json',
      'x-api-key': 'sk-ant-test',
      'anthropic-version': '2023-06-01',
    });
  });

  it('uses the channel anthropicVersion option, and the client version and beta on pass-through', () => {
    const attempt = testAttempt({ options: { anthropicVersion: '2024-01-01' } });
    expect(anthropicHeaders(attempt)['anthropic-version']).toBe('2024-01-01');
    const headers = anthropicHeaders(attempt, { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'files-api-2025-04-14' });
    expect(headers['anthropic-version']).toBe('2026-10-21');
    expect(headers['anthropic-beta']).toBe('files-api-2025-04-14');
  });
});
