import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { runwayHeaders, runwayTaskUrl } from './runway-request.js';

const channel = (options: Record<string, unknown> = {}): ChannelConfig => ({
  name: 'r',
  provider: 'runway',
  baseUrl: 'https://api.dev.runwayml.com/',
  apiKey: 'key_x',
  headers: {},
  timeoutMs: 1,
  options,
});

describe('runway request', () => {
  it('names the API version on every request, the channel’s own when it gives a valid one', () => {
    expect(runwayHeaders(channel(), false)).toEqual({ accept: 'application/json', authorization: 'Bearer key_x', 'x-runway-version': '2024-11-06' });
    expect(runwayHeaders(channel({ runwayVersion: '2025-09-01' }), true)['x-runway-version']).toBe('2025-09-01');
    expect(runwayHeaders(channel({ runwayVersion: 'latest\r\nx: y' }), true)['x-runway-version']).toBe('2024-11-06');
  });

  it('builds task URLs under the base URL', () => {
    expect(runwayTaskUrl(channel(), 'a/b')).toBe('https://api.dev.runwayml.com/v1/tasks/a%2Fb');
  });
});
