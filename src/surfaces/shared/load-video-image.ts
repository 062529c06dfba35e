/**
 * A reference image given to a video surface: an http(s) URL the gateway fetches with its
 * guards (the URL is kept as `sourceUrl`, for upstreams that only take URLs), or a base64
 * `data:` URL, as Ark also accepts. Either way the bytes are checked within the image limits.
 */
import type { ImageInput } from '../../core/image.js';
import { decodeImageString, isDataUrl } from '../../core/image-bytes.js';
import { requireString } from '../../core/validate.js';
import type { GatewayServices } from '../../gateway/contract.js';

/** At most this many reference images per video request (Ark's largest set: four reference images). */
export const MAX_VIDEO_IMAGES = 4;

export async function loadVideoImage(
  services: Pick<GatewayServices, 'fetchImage' | 'imageLimits'>,
  value: unknown,
  param: string,
  signal: AbortSignal,
): Promise<ImageInput> {
  const text = requireString(value, param).trim();
  if (isDataUrl(text)) return decodeImageString(text, param, services.imageLimits);
  const fetched = await services.fetchImage(text, param, signal);
  return { ...fetched, sourceUrl: text };
}
