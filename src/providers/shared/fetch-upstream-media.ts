/**
 * Downloads a result an upstream left at a URL (image samples, videos). The URL comes from the
 * configured upstream, not from the client, so private addresses are allowed (local upstreams);
 * the size is still capped.
 */
import { GatewayError } from '../../core/errors.js';
import { headerValue, sendUpstream } from './upstream-http.js';

export interface FetchedMedia {
  data: Uint8Array;
  contentType?: string;
}

export async function fetchUpstreamMedia(url: string, signal: AbortSignal, maxBytes: number, timeoutMs: number): Promise<FetchedMedia> {
  const response = await sendUpstream({ url, method: 'GET', headers: {}, signal, timeoutMs });
  if (response.status !== 200) {
    response.body.on('error', () => undefined);
    response.body.destroy();
    throw new GatewayError('upstream', `fetching the upstream result answered HTTP ${response.status}`, { retryable: true, upstreamStatus: response.status });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.body.on('error', () => undefined);
      response.body.destroy();
      throw new GatewayError('upstream', `the upstream result is larger than the limit of ${maxBytes} bytes`, { retryable: false });
    }
    chunks.push(chunk as Buffer);
  }
  return { data: Buffer.concat(chunks), contentType: headerValue(response.headers, 'content-type') };
}
