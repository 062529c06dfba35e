/**
 * How upstream connections are opened: the host a channel's base URL names is judged again when
 * the gateway connects, by the rules its configuration was checked with (`base-url-hosts.ts`),
 * on the literal address or on every address a name resolves to. So a name that resolves to a
 * metadata or private address, or a stored channel saved before those rules, never reaches it.
 * The connection fails as unreachable (`EPRIVATEADDRESS`), which fails over like any other.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { classifyAddress, classifyHost, hostClassRefusal } from './base-url-hosts.js';

let allowPrivate = false;

/** `router.allowPrivateBaseUrls`, set once at start. */
export function allowPrivateUpstreams(allow: boolean): void {
  allowPrivate = allow;
}

function refused(address: string): Error {
  return Object.assign(new Error(`refusing to connect to ${address}: not an address channels may reach`), { code: 'EPRIVATEADDRESS' });
}

const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const bad = addresses.find((entry) => hostClassRefusal(classifyAddress(entry.address), allowPrivate) !== undefined);
    if (bad) return callback(refused(bad.address), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

const connect = buildConnector({ lookup: checkedLookup, timeout: 10_000 });

export const connectUpstream: buildConnector.connector = (options, callback) => {
  if (hostClassRefusal(classifyHost(options.hostname), allowPrivate) !== undefined) return callback(refused(options.hostname), null);
  connect(options, callback);
};
