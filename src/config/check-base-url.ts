/**
 * What makes a channel's base URL usable: an http(s) URL the gateway appends request paths to.
 * A query, a fragment or credentials in it would end up in the wrong place of every upstream
 * URL (after the path is joined on), so they are refused when the configuration is read; so is
 * a host a channel may not reach (`providers/shared/base-url-hosts.ts`: metadata never, private networks by choice).
 */
import { classifyHost, hostClassRefusal } from '../providers/shared/base-url-hosts.js';

/**
 * The configuration error for a base URL, naming `field`, or undefined when it is usable. Only
 * a URL that is not http(s) at all is echoed, and not when it holds an `@` (a query or userinfo
 * may hold a secret, and `me:secret@host` parses as a URL of scheme `me:`). `onlyMalformed` holds
 * it to what earlier versions required: an http(s) URL without credentials. `allowPrivate` lets
 * it point at private networks (`router.allowPrivateBaseUrls`).
 */
export function baseUrlError(baseUrl: string, field: string, options: { onlyMalformed?: boolean; allowPrivate?: boolean } = {}): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // reported below
  }
  if (url?.username || url?.password) return `${field} must not carry credentials (set the channel apiKey or headers)`;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    return baseUrl.includes('@') ? `${field} must be an http(s) URL` : `${field} must be an http(s) URL, got ${JSON.stringify(baseUrl)}`;
  }
  if (options.onlyMalformed) return undefined;
  // A bare `?` or `#` leaves `search`/`hash` empty but still ends the path.
  if (baseUrl.includes('?')) return `${field} must not carry a query (paths are appended to it; put parameters in the channel headers or options)`;
  if (baseUrl.includes('#')) return `${field} must not carry a fragment`;
  const refusal = hostClassRefusal(classifyHost(url.hostname), options.allowPrivate ?? false);
  return refusal ? `${field} ${refusal}` : undefined;
}
