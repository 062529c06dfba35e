import { describe, expect, it } from 'vitest';
import { throttleAddress } from './sign-in-throttle.js';

describe('throttleAddress', () => {
  it('counts an IPv4 address as itself, and an IPv6 address by its /64', () => {
    expect(throttleAddress('203.0.113.5')).toBe('203.0.113.5');
    expect(throttleAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(throttleAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:0db8::7')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
