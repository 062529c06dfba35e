import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { arkHeaders, arkTaskListUrl, arkTasksUrl, arkTaskUrl } from './ark-request.js';

const channel = (baseUrl: string, headers: Record<string, string> = {}): ChannelConfig => ({
  name: 'ark',
  provider: 'ark',
  baseUrl,
  apiKey: 'ark-key',
  headers,
  timeoutMs: 1_000,
  options: {},
});

describe('ark request', () => {
  it('appends /api/v3 to a host, and not twice to an SDK-style base URL', () => {
    expect(arkTasksUrl(channel('https://ark.cn-beijing.volces.com'))).toBe('https://ark.cn-beijing.volces.com/api/v3/contents/generations/tasks');
    expect(arkTasksUrl(channel('https://ark.cn-beijing.volces.com/api/v3/'))).toBe('https://ark.cn-beijing.volces.com/api/v3/contents/generations/tasks');
  });

  it('names one task by its escaped id, and a batch by repeated filter.task_ids', () => {
    expect(arkTaskUrl(channel('http://h'), 'cgt-1/..')).toBe('http://h/api/v3/contents/generations/tasks/cgt-1%2F..');
    // Finding 2: a dot segment cannot be escaped, so it is never put in the path.
    expect(() => arkTaskUrl(channel('http://h'), '..')).toThrow(/cannot be used in a URL/);
    expect(arkTaskListUrl(channel('http://h'), ['cgt-1', 'cgt-2'])).toBe(
      'http://h/api/v3/contents/generations/tasks?page_num=1&page_size=2&filter.task_ids=cgt-1&filter.task_ids=cgt-2',
    );
  });

  it("sends the key as a Bearer token with the channel's extra headers", () => {
    expect(arkHeaders(channel('http://h', { 'X-Trace': 't' }))).toEqual({
      authorization: 'Bearer ark-key',
      'content-type': 'application/json',
      'x-trace': 't',
    });
  });
});
