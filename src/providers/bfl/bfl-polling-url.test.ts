import { describe, expect, it } from 'vitest';
import { checkedPollingUrl } from './bfl-polling-url.js';

describe('checkedPollingUrl', () => {
  it('follows the channel origin and https hosts of the channel domain', () => {
    expect(checkedPollingUrl('https://api.eu1.bfl.ai/v1/get_result?id=a', 'https://api.bfl.ai')).toBe('https://api.eu1.bfl.ai/v1/get_result?id=a');
    expect(checkedPollingUrl('http://127.0.0.1:4000/v1/get_result?id=a', 'http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000/v1/get_result?id=a');
  });

  it('refuses other domains, loopback services, plain http and credentials', () => {
    const base = 'https://api.bfl.ai';
    for (const url of [
      'https://evil.example/v1/get_result',
      'https://bfl.ai.evil.example/x',
      'http://api.eu1.bfl.ai/v1/get_result',
      'http://127.0.0.1:6379/',
      'https://169.254.169.254/latest',
      'https://user:pw@api.eu1.bfl.ai/x',
      'not a url',
    ]) {
      expect(() => checkedPollingUrl(url, base), url).toThrow(/polling URL/);
    }
    expect(() => checkedPollingUrl('http://127.0.0.1:9/x', 'http://127.0.0.1:4000')).toThrow(/not https/);
  });
});
