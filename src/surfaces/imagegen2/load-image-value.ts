/**
 * An image as imagegen2 clients give it: an http(s) URL (fetched by the gateway, with its
 * guards), a `data:` URL, or bare base64 — checked within the gateway's image limits from its
 * header, and counted against the pixels one request may bring (one loader per request).
 */
import type { ImageInput } from '../../core/image.js';
import { decodeImageString, toImageInput } from '../../core/image-bytes.js';
import { ImagePixelBudget } from '../../core/image-pixel-budget.js';
import { requireString } from '../../core/validate.js';
import type { GatewayServices } from '../../gateway/contract.js';

export type ImageLoader = (value: unknown, param: string) => Promise<ImageInput>;

/** Anything written `scheme://…` is a URL; the guarded fetch refuses schemes other than http(s). */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

export function createImageLoader(services: Pick<GatewayServices, 'fetchImage' | 'imageLimits'>, signal: AbortSignal): ImageLoader {
  const limits = services.imageLimits;
  const budget = ImagePixelBudget.forImageCap(limits.maxPixels);
  return async (value, param) => {
    const text = requireString(value, param).trim();
    if (URL_LIKE.test(text)) {
      const fetched = await services.fetchImage(text, param, signal);
      return budget.take(toImageInput(fetched.data, param, { ...limits, filename: fetched.filename }), param);
    }
    return budget.take(decodeImageString(text, param, limits), param);
  };
}
