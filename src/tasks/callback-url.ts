/**
 * Checks a client-supplied webhook URL. At submit time the syntax and the literal host are
 * checked (`checkCallbackUrl`, an invalid_request naming the client's field); what a host name
 * resolves to is checked at each delivery, when the connection is made (see `guardedLookup`),
 * so a name re-pointed at a private address later is refused too.
 */
import { isIP } from 'node:net';
import { controlCharacterAt } from '../core/client-strings.js';
import { GatewayError } from '../core/errors.js';
import { isPrivateAddress } from '../media/private-addresses.js';

const MAX_CALLBACK_URL_CHARS = 2048;

interface CallbackUrlOptions {
  /** Whether loopback and private hosts are allowed (`media.allowPrivateUrls`). */
  allowPrivateUrls: boolean;
}

/** Why the gateway will not post to `raw`, or undefined when it will. */
export function callbackUrlProblem(raw: unknown, options: CallbackUrlOptions): string | undefined {
  if (typeof raw !== 'string' || raw.length === 0) return 'must be a non-empty URL string';
  if (raw.length > MAX_CALLBACK_URL_CHARS) return `must be at most ${MAX_CALLBACK_URL_CHARS} characters`;
  // Stored as sent (PostgreSQL cannot hold U+0000), and the URL parser would quietly drop or encode them.
  if (controlCharacterAt(raw) !== -1) return 'must not contain control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http or https URL, got ${url.protocol.slice(0, 20)}`;
  if (url.username || url.password) return 'must not carry credentials (put a token in the path or query instead)';
  if (options.allowPrivateUrls) return undefined;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && isPrivateAddress(host))) {
    return 'points to a private or loopback address, which the gateway does not call';
  }
  return undefined;
}

/** Throws an invalid_request naming `param` (the client's field, e.g. `notifyHook`) when `raw` is refused; returns it otherwise. */
export function checkCallbackUrl(raw: unknown, options: CallbackUrlOptions & { param: string }): string {
  const problem = callbackUrlProblem(raw, options);
  if (problem) throw new GatewayError('invalid_request', `${options.param} ${problem}`, { param: options.param, code: 'invalid_callback_url' });
  return raw as string;
}
