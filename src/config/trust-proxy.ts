/**
 * `server.trustProxy`: which `X-Forwarded-*` hops the gateway believes. Either the number of
 * proxies in front of it (the client is the entry that many hops from the right; only sound when
 * nothing reaches the gateway but those proxies), or the addresses and CIDR ranges of those
 * proxies. `true` is refused: it trusts every hop, so any client picks the address it is
 * counted under (sign-in limits, logs) by sending the header.
 */
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

/** `false`, a hop count of at least 1, or proxy addresses / CIDR ranges. */
type TrustProxy = false | number | string[];

/**
 * What Fastify is given. Fastify refuses to believe any hop for a bare number (it cannot check the
 * peer), so a hop count becomes the function that trusts exactly that many hops.
 */
export function trustProxyOption(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

/** proxy-addr's names for the loopback, link-local and unique-local ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (rest.length > 0 || family === 0 || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export function parseTrustProxy(value: unknown, where = 'server.trustProxy'): TrustProxy {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === 'false') return false;
  if (value === true || value === 'true') {
    throw new ConfigError(
      `${where}: true would trust every X-Forwarded-For hop, so any client could choose the address it is counted under; ` +
        'set the number of proxies in front of gengate (for example 1) or their addresses or ranges (for example "10.0.0.0/8")',
    );
  }
  const count = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof count === 'number') {
    if (!Number.isInteger(count) || count < 0) throw new ConfigError(`${where} must be a whole number of proxies, or their addresses or ranges`);
    return count === 0 ? false : count;
  }
  const entries = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'string')) {
    throw new ConfigError(`${where} must be a number of proxies, or a list of their addresses or CIDR ranges`);
  }
  const ranges = (entries as string[]).map((entry) => entry.trim()).filter(Boolean);
  const bad = ranges.find((entry) => !isRange(entry));
  if (bad !== undefined) throw new ConfigError(`${where}: ${JSON.stringify(bad)} is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
  return ranges.length === 0 ? false : ranges;
}
