/**
 * Which hosts a channel's base URL may reach. Loopback always (local model servers are common);
 * other private networks only with `router.allowPrivateBaseUrls`; link-local addresses and the
 * cloud metadata services never — not by an IPv4 or IPv6 literal in any spelling (an IPv6 form
 * carrying an IPv4 address is judged by that address), and not by name. A host given as a
 * name is judged here only when it is a metadata or localhost name; the addresses it resolves to
 * are judged when the gateway connects (`providers/shared/upstream-connector.ts`).
 */
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4, isPrivateAddress } from '../../media/private-addresses.js';

type HostClass = 'public' | 'loopback' | 'private' | 'metadata';

const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

const metadata = new BlockList();
metadata.addSubnet('169.254.0.0', 16, 'ipv4');
// Alibaba Cloud's metadata service sits in the carrier-grade NAT range.
metadata.addAddress('100.100.100.200', 'ipv4');
metadata.addSubnet('fe80::', 10, 'ipv6');
// AWS's IPv6 instance metadata, DNS and time services.
metadata.addSubnet('fd00:ec2::', 32, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The IPv4 addresses an address stands for: itself, or those an IPv6 form carries. */
function ipv4Readings(address: string, parts: number[] | undefined): string[] {
  return parts ? embeddedIPv4(parts) : [address];
}

/** The class of an IP address (without brackets); anything that does not parse is `private`. */
export function classifyAddress(address: string): HostClass {
  const family = isIP(address);
  let parts: number[] | undefined;
  if (family === 6) {
    try {
      parts = ipaddr.IPv6.parse(address).parts;
    } catch {
      return 'private';
    }
  } else if (family !== 4) {
    return 'private';
  }
  const normalized = parts?.map((part) => part.toString(16)).join(':');
  const v4 = ipv4Readings(address, parts);
  if (v4.some((inner) => metadata.check(inner, 'ipv4')) || (normalized !== undefined && metadata.check(normalized, 'ipv6'))) return 'metadata';
  if (normalized !== undefined && loopback.check(normalized, 'ipv6')) return 'loopback';
  if (v4.length > 0 && v4.every((inner) => loopback.check(inner, 'ipv4'))) return 'loopback';
  return isPrivateAddress(address) ? 'private' : 'public';
}

/** The class of a URL's host (brackets allowed) when it can be told without resolving it; undefined for other names. */
export function classifyHost(host: string): HostClass | undefined {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (isIP(bare) !== 0) return classifyAddress(bare);
  if (METADATA_NAMES.has(bare)) return 'metadata';
  if (bare === 'localhost' || bare.endsWith('.localhost')) return 'loopback';
  return undefined;
}

/** Why a host of this class is refused, or undefined when it is allowed. */
export function hostClassRefusal(hostClass: HostClass | undefined, allowPrivate: boolean): string | undefined {
  if (hostClass === 'metadata') return 'points at a link-local or cloud metadata address, which channels may never reach';
  if (hostClass === 'private' && !allowPrivate) {
    return 'points at a private network address; set router.allowPrivateBaseUrls (GENGATE_ALLOW_PRIVATE_BASE_URLS=true) to allow it';
  }
  return undefined;
}
