/**
 * An image as imagegen2 clients give it: an http(s) URL (fetched by the gateway, with its
 * guards), a `data:` URL, or bare base64.
 */
import type { ImageInput } from '../../core/image.js';
import { decodeImageString } from '../../core/image-bytes.js';
import { requireString } from '../../core/validate.js';
import type { GatewayServices } from '../../gateway/contract.js';

export type ImageLoader = (value: unknown, param: string) => Promise<ImageInput>;

/** Anything written `scheme://…` is a URL; the guarded fetch refuses schemes other than http(s). */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

export function createImageLoader(services: Pick<GatewayServices, 'fetchImage'>, signal: AbortSignal): ImageLoader {
  return async (value, param) => {
    const text = requireString(value, param).trim();
    if (URL_LIKE.test(text)) return services.fetchImage(text, param, signal);
    return decodeImageString(text, param);
  };
}
