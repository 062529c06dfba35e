/**
 * Addresses a client-supplied URL must not reach: loopback, private, link-local (cloud
 * metadata lives at 169.254.169.254), carrier-grade NAT, unspecified, multicast, reserved —
 * and every IPv6 form that carries an IPv4 address inside it (IPv4-compatible, IPv4-mapped,
 * IPv4-translated, 6to4, Teredo, NAT64), which is checked as that IPv4 address. IPv6 literals
 * are parsed into their eight groups, never matched as strings, so every spelling is the same.
 */
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

function ipv4(b: ArrayLike<number>, at: readonly [number, number, number, number]): string {
  return at.map((i) => b[i]).join('.');
}

/**
 * The IPv4 addresses an IPv6 address carries, by the standard places they sit (RFC 4291,
 * 6052, 6145, 3056, 4380, 8215). Where a prefix allows several places, every reading is returned.
 */
export function embeddedIPv4(parts: readonly number[]): string[] {
  const b = new Uint8Array(parts.flatMap((part) => [part >> 8, part & 0xff]));
  const zero = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  const last32 = ipv4(b, [12, 13, 14, 15]);
  // ::a.b.c.d (IPv4-compatible) and ::ffff:a.b.c.d (IPv4-mapped)
  if (zero(0, 5) && (parts[5] === 0 || parts[5] === 0xffff)) return [last32];
  // ::ffff:0:a.b.c.d (IPv4-translated, SIIT)
  if (zero(0, 4) && parts[4] === 0xffff && parts[5] === 0) return [last32];
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
  if (parts[0] === 0x64 && parts[1] === 0xff9b && zero(2, 6)) return [last32];
  // 64:ff9b:1::/48 (local-use NAT64): the operator picks the prefix length. Behind a /96 the
  // address is the last 32 bits; with those zero it sits behind a /48, /56 or /64 (skipping
  // bits 64–71), and every such reading must be public.
  if (parts[0] === 0x64 && parts[1] === 0xff9b && parts[2] === 1) {
    if (!zero(6, 8)) return [last32];
    return [ipv4(b, [6, 7, 9, 10]), ipv4(b, [7, 9, 10, 11]), ipv4(b, [9, 10, 11, 12])];
  }
  // 2002:AABB:CCDD::/48 (6to4)
  if (parts[0] === 0x2002) return [ipv4(b, [2, 3, 4, 5])];
  // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC (Teredo): the server, and the client's address inverted.
  if (parts[0] === 0x2001 && parts[1] === 0) {
    const client = [12, 13, 14, 15].map((i) => b[i] ^ 0xff).join('.');
    return [ipv4(b, [4, 5, 6, 7]), client];
  }
  return [];
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  let parts: number[];
  try {
    parts = ipaddr.IPv6.parse(address).parts;
  } catch {
    return true;
  }
  if (embeddedIPv4(parts).some((inner) => blocked.check(inner, 'ipv4'))) return true;
  const normalized = parts.map((part) => part.toString(16)).join(':');
  return blocked.check(normalized, 'ipv6');
}
