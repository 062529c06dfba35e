/** A succeeded prediction's `output` (one URI or a list) as produced images. */
import { GatewayError } from '../../core/errors.js';
import type { ProducedImage } from '../../core/image.js';

const MEDIA_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

export function toProducedImages(output: unknown, logs: unknown, outputFormat: string, seed: number | undefined): ProducedImage[] {
  const uris = (Array.isArray(output) ? output : [output]).filter((item): item is string => typeof item === 'string' && item.length > 0);
  if (uris.length === 0) throw new GatewayError('upstream', 'the Replicate prediction succeeded without an image', { retryable: true });
  // Seeds are known for a lone image only: the logs (or the request) name the first one.
  const knownSeed = uris.length === 1 ? (seedFromLogs(logs) ?? seed) : undefined;
  return uris.map((uri) => ({ ...fromUri(uri, outputFormat), seed: knownSeed }));
}

/** Flux models on Replicate log `Using seed: N`. */
export function seedFromLogs(logs: unknown): number | undefined {
  if (typeof logs !== 'string') return undefined;
  const match = /Using seed: (\d+)/.exec(logs);
  return match ? Number(match[1]) : undefined;
}

/** Blocking (`Prefer: wait`) answers may carry data URIs instead of delivery URLs. */
function fromUri(uri: string, outputFormat: string): ProducedImage {
  const data = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(uri);
  if (data) {
    const bytes = data[2] ? Buffer.from(data[3], 'base64') : Buffer.from(decodeURIComponent(data[3]), 'utf8');
    return { data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mediaType: data[1] ?? MEDIA_TYPES[outputFormat] };
  }
  let pathname: string;
  try {
    pathname = new URL(uri).pathname;
  } catch {
    throw new GatewayError('upstream', `Replicate returned an output that is not a URL: ${uri.slice(0, 100)}`, { retryable: true });
  }
  const extension = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase();
  return { url: uri, mediaType: (extension && MEDIA_TYPES[extension]) ?? MEDIA_TYPES[outputFormat] };
}
