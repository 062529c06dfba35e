/**
 * Downloads a result an upstream left at a URL (image samples). The URL is whatever the
 * upstream answered, so it is fetched through the same guard as a client's URL: private,
 * loopback and link-local addresses are refused (else an upstream's answer could make the
 * gateway fetch and re-serve an internal resource), except the channel's own origin (a local
 * upstream serving its files) and unless `media.allowPrivateUrls` is on; redirects are checked
 * hop by hop; the size and the time are capped.
 */
import { GatewayError } from '../../core/errors.js';
import { guardedFetch, PRIVATE_URL_CODE, TOO_LARGE_CODE } from '../../media/guarded-fetch.js';

interface FetchedMedia {
  data: Uint8Array;
  contentType?: string;
}

interface UpstreamMediaOptions {
  signal: AbortSignal;
  maxBytes: number;
  timeoutMs: number;
  /** `media.allowPrivateUrls`. */
  allowPrivate: boolean;
  /** The base URL of the channel that answered: its own origin is always fetched. */
  upstreamBaseUrl?: string;
}

export async function fetchUpstreamMedia(url: string, options: UpstreamMediaOptions): Promise<FetchedMedia> {
  try {
    const fetched = await guardedFetch(url, {
      allowPrivate: options.allowPrivate,
      trustedBaseUrl: options.upstreamBaseUrl,
      maxBytes: options.maxBytes,
      timeoutMs: options.timeoutMs,
      param: 'upstream result',
      signal: options.signal,
    });
    return { data: fetched.data, contentType: fetched.contentType };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    // Another channel may answer an image the gateway can take; one too large is the request's doing.
    throw new GatewayError('upstream', `the upstream's image could not be taken over: ${error.message}`, {
      retryable: error.code !== TOO_LARGE_CODE,
      code: error.code === PRIVATE_URL_CODE ? 'upstream_url_refused' : undefined,
      cause: error,
    });
  }
}
