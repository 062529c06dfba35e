import { describe, expect, it } from 'vitest';
import { embeddedIPv4, isPrivateAddress } from './private-addresses.js';

describe('isPrivateAddress: IPv6 forms that carry an IPv4 address (minor finding of issue 8)', () => {
  it.each([
    // The reported literals
    ['::7f00:1', true],
    ['::ffff:0:7f00:1', true],
    ['2002:7f00:1::', true],
    // IPv4-compatible, every spelling
    ['::127.0.0.1', true],
    ['0:0:0:0:0:0:7f00:1', true],
    ['::a9fe:a9fe', true],
    ['::a00:1', true],
    // IPv4-mapped, every spelling
    ['::ffff:7f00:1', true],
    ['::ffff:127.0.0.1', true],
    ['0:0:0:0:0:FFFF:7F00:0001', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:8.8.8.8', false],
    // IPv4-translated (SIIT)
    ['::ffff:0:127.0.0.1', true],
    ['0:0:0:0:ffff:0:a00:1', true],
    ['::ffff:0:808:808', false],
    // 6to4
    ['2002:7f00:0001::1', true],
    ['2002:a9fe:a9fe::', true],
    ['2002:c0a8:0101:1::1', true],
    ['2002:808:808::1', false],
    // Teredo: server 65.54.227.120, client inverted (127.0.0.1 → 80ff:fffe, 8.8.8.8 → f7f7:f7f7)
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['2001:0000:4136:e378:8000:63bf:f5ff:fffe', true],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', true],
    // NAT64, well-known prefix: checked as the IPv4 address inside
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::808:808', false],
    // NAT64, local-use prefix behind a /96, and behind a /48 (127.0.0.1 split around bits 64–71)
    ['64:ff9b:1::a00:1', true],
    ['64:ff9b:1::808:808', false],
    ['64:ff9b:1:7f00:0:100::', true],
    ['64:ff9b:1::', true],
    // Plain IPv6 ranges
    ['::', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['fe80::1%eth0', true],
    ['fec0::1', true],
    ['fd00::1', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['100::1', true],
    ['2606:4700::1111', false],
    ['2a00:1450:4001:81c::200e', false],
  ])('%s → %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('refuses anything that is not an address', () => {
    expect(isPrivateAddress('localhost')).toBe(true);
    expect(isPrivateAddress('::ffff:999.0.0.1')).toBe(true);
    expect(isPrivateAddress('')).toBe(true);
  });
});

describe('embeddedIPv4', () => {
  it('finds the address in each standard place', () => {
    expect(embeddedIPv4([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1])).toEqual(['127.0.0.1']);
    expect(embeddedIPv4([0x2002, 0xc000, 0x0201, 0, 0, 0, 0, 1])).toEqual(['192.0.2.1']);
    expect(embeddedIPv4([0x2001, 0, 0x4136, 0xe378, 0x8000, 0x63bf, 0x3fff, 0xfdd2])).toEqual(['65.54.227.120', '192.0.2.45']);
    expect(embeddedIPv4([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111])).toEqual([]);
  });
});
