import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import { callbackUrlProblem, checkCallbackUrl } from './callback-url.js';

const closed = { allowPrivateUrls: false };

function refusal(raw: unknown, param = 'notifyHook'): GatewayError {
  try {
    checkCallbackUrl(raw, { ...closed, param });
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`${String(raw)} was accepted`);
}

describe('callback URLs', () => {
  it('accepts public http(s) URLs and returns them', () => {
    expect(checkCallbackUrl('https://hooks.example.com/in?token=abc', { ...closed, param: 'notifyHook' })).toBe('https://hooks.example.com/in?token=abc');
    expect(checkCallbackUrl('http://93.184.215.14:8080/cb', { ...closed, param: 'callback_url' })).toBe('http://93.184.215.14:8080/cb');
  });

  it('refuses other schemes, bad syntax, credentials and overlong URLs with an invalid_request naming the field', () => {
    for (const raw of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', '', 42, null, 'https://user:pw@example.com/']) {
      const error = refusal(raw, 'callback_url');
      expect(error.kind).toBe('invalid_request');
      expect(error.param).toBe('callback_url');
      expect(error.message.startsWith('callback_url ')).toBe(true);
    }
    expect(callbackUrlProblem(`https://example.com/${'a'.repeat(2048)}`, closed)).toMatch(/at most 2048/);
    expect(callbackUrlProblem(`https://example.com/${'a'.repeat(2000)}`, closed)).toBeUndefined();
  });

  it('refuses loopback, private and link-local literals and localhost names unless private URLs are allowed', () => {
    const internal = [
      'http://localhost:8080/',
      'http://LOCALHOST./x',
      'http://api.localhost/',
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://10.1.2.3/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fe80::1]/',
    ];
    for (const raw of internal) {
      expect(refusal(raw).message).toMatch(/private or loopback/);
      expect(checkCallbackUrl(raw, { allowPrivateUrls: true, param: 'notifyHook' })).toBe(raw);
    }
  });
});
