/**
 * Fetches a URL a client gave us (an image to edit, later a callback target) without letting it
 * reach inside the network: http(s) only, every address the host resolves to checked against
 * private ranges at connect time (so DNS rebinding cannot slip past), redirects followed by
 * hand and re-checked, the body capped in size and the whole fetch in time.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { type Readable, Transform } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { GatewayError } from '../core/errors.js';
import { isPrivateAddress } from './private-addresses.js';

export interface GuardOptions {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  /** Client name of the field the URL came in, for error messages. */
  param: string;
  signal?: AbortSignal;
  maxRedirects?: number;
  /**
   * The base URL of the configured upstream that handed the URL over: its origin is fetched even
   * when private (a local upstream serving its own files). Redirects elsewhere are still checked.
   */
  trustedBaseUrl?: string;
}

interface FetchedBody {
  data: Uint8Array;
  contentType: string | undefined;
  finalUrl: string;
}

/** Drops a response body; undici reports a destroyed body as an error, which nobody needs here. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

function refuse(param: string, message: string, code?: string): GatewayError {
  return new GatewayError('invalid_request', `${param}: ${message}`, { param, code });
}

/** The code of a refusal because the URL reaches a private, loopback or link-local address. */
export const PRIVATE_URL_CODE = 'private_url';
/** The code of a refusal because the resource is larger than the cap. */
export const TOO_LARGE_CODE = 'resource_too_large';

/** A lookup that fails when any address of the host is private. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const bad = addresses.find((entry) => isPrivateAddress(entry.address));
    if (bad) {
      const refused = Object.assign(new Error(`refusing to connect to private address ${bad.address}`), { code: 'EPRIVATEADDRESS' });
      return callback(refused, '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

const guardedAgent = new Agent({ connect: { lookup: guardedLookup }, keepAliveTimeout: 5_000 });
const openAgent = new Agent({ keepAliveTimeout: 5_000 });

export async function guardedFetch(rawUrl: string, options: GuardOptions): Promise<FetchedBody> {
  return withinDeadline(options, async (signal) => {
    const { response, url } = await openGuarded(rawUrl, options, signal);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > options.maxBytes) {
          discard(response.body);
          throw tooLarge(options);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      throw readFailure(error, options, signal);
    }
    return { data: Buffer.concat(chunks), contentType: contentTypeOf(response), finalUrl: url.toString() };
  });
}

/**
 * Like `guardedFetch`, but hands the body to `consume` as a stream (a video goes to disk, not
 * into memory); the size cap and the deadline still hold while it is read.
 */
export async function guardedDownload<T>(
  rawUrl: string,
  options: GuardOptions,
  consume: (body: Readable, contentType: string | undefined) => Promise<T>,
): Promise<T> {
  return withinDeadline(options, async (signal) => {
    const { response } = await openGuarded(rawUrl, options, signal);
    let size = 0;
    const capped = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > options.maxBytes) done(tooLarge(options));
        else done(null, chunk);
      },
    });
    response.body.on('error', (error) => capped.destroy(error));
    response.body.pipe(capped);
    try {
      return await consume(capped, contentTypeOf(response));
    } catch (error) {
      discard(response.body);
      throw readFailure(error, options, signal);
    }
  });
}

async function withinDeadline<T>(options: GuardOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const onClientAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onClientAbort, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onClientAbort);
  }
}

function tooLarge(options: GuardOptions): GatewayError {
  return refuse(options.param, `the resource is larger than the limit of ${options.maxBytes} bytes`, TOO_LARGE_CODE);
}

function readFailure(error: unknown, options: GuardOptions, signal: AbortSignal): GatewayError {
  if (error instanceof GatewayError) return error;
  if (signal.aborted) return refuse(options.param, `fetching the URL took longer than ${options.timeoutMs} ms or was cancelled`);
  return refuse(options.param, `reading the URL failed (${(error as Error).message})`);
}

function contentTypeOf(response: Dispatcher.ResponseData): string | undefined {
  const type = response.headers['content-type'];
  return Array.isArray(type) ? type[0] : type;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Follows redirects by hand, checking each hop; resolves the 200 answer whose body is still unread. */
async function openGuarded(rawUrl: string, options: GuardOptions, signal: AbortSignal): Promise<{ response: Dispatcher.ResponseData; url: URL }> {
  const { param } = options;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse(param, 'not a valid URL');
  }
  const trustedOrigin = originOf(options.trustedBaseUrl);
  for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(param, `only http and https URLs are fetched, got ${url.protocol}`);
    if (url.username || url.password) throw refuse(param, 'URLs with credentials are not fetched');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const open = options.allowPrivate || url.origin === trustedOrigin;
    if (!open && (host === 'localhost' || (isIP(host) !== 0 && isPrivateAddress(host)))) {
      throw refuse(param, 'the URL points to a private or loopback address, which the gateway does not fetch', PRIVATE_URL_CODE);
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        signal,
        dispatcher: open ? openAgent : guardedAgent,
        headers: { accept: 'image/*,video/*;q=0.9,*/*;q=0.5', 'user-agent': 'gengate' },
      });
    } catch (error) {
      if (signal.aborted) throw refuse(param, `fetching the URL took longer than ${options.timeoutMs} ms or was cancelled`);
      const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'EPRIVATEADDRESS' || String(error).includes('private address')) {
        throw refuse(param, 'the URL resolves to a private or loopback address, which the gateway does not fetch', PRIVATE_URL_CODE);
      }
      throw refuse(param, `the URL could not be fetched (${(error as Error).message})`);
    }
    if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
      discard(response.body);
      url = new URL(String(response.headers.location), url);
      continue;
    }
    if (response.statusCode !== 200) {
      discard(response.body);
      throw refuse(param, `fetching the URL answered HTTP ${response.statusCode}`);
    }
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      discard(response.body);
      throw tooLarge(options);
    }
    return { response, url };
  }
  throw refuse(param, 'too many redirects');
}
