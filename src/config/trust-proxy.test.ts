import { describe, expect, it } from 'vitest';
import { parseTrustProxy, trustProxyOption } from './trust-proxy.js';

describe('parseTrustProxy', () => {
  it('reads off, a hop count, or proxy addresses and ranges', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy(false)).toBe(false);
    expect(parseTrustProxy(0)).toBe(false);
    expect(parseTrustProxy(2)).toBe(2);
    expect(parseTrustProxy('1', 'GENGATE_TRUST_PROXY')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.1 ,loopback')).toEqual(['10.0.0.0/8', '192.168.1.1', 'loopback']);
    expect(parseTrustProxy(['fd00::/8', '::1'])).toEqual(['fd00::/8', '::1']);
  });

  it('refuses true, and anything that is not a count, an address or a range', () => {
    expect(() => parseTrustProxy(true)).toThrow(/number of proxies/);
    expect(() => parseTrustProxy('true', 'GENGATE_TRUST_PROXY')).toThrow(/GENGATE_TRUST_PROXY/);
    expect(() => parseTrustProxy(1.5)).toThrow(/whole number/);
    expect(() => parseTrustProxy(['10.0.0.0/33'])).toThrow(/not an IP address/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/not an IP address/);
    expect(() => parseTrustProxy({ hops: 1 })).toThrow(/list of their addresses/);
  });

  it('hands Fastify a function that trusts exactly the hop count', () => {
    const trust = trustProxyOption(1) as (address: string, hop: number) => boolean;
    expect([trust('10.0.0.2', 0), trust('203.0.113.1', 1)]).toEqual([true, false]);
    expect(trustProxyOption(['10.0.0.0/8'])).toEqual(['10.0.0.0/8']);
  });
});
