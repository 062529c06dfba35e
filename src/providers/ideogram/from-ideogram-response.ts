/** Ideogram's answer → the canonical ImageResult; image URLs are fetched later by the gateway. */
import { GatewayError } from '../../core/errors.js';
import type { ImageResult, ProducedImage } from '../../core/image.js';
import { nowSeconds } from '../../core/ids.js';
import type { IdeogramImageResponse } from '../../core/wire/ideogram-types.js';
import { CONTENT_POLICY_CODE } from './map-ideogram-error.js';

export function fromIdeogramResponse(response: IdeogramImageResponse): ImageResult {
  if (!response || !Array.isArray(response.data)) {
    throw new GatewayError('upstream', 'upstream answered without a data list', { retryable: true });
  }
  const images: ProducedImage[] = [];
  for (const item of response.data) {
    // Ideogram leaves `url` empty for an image that failed its safety check: nothing to deliver.
    if (item.is_image_safe === false || !item.url) continue;
    images.push({
      url: item.url,
      revisedPrompt: item.prompt,
      seed: item.seed,
      resolution: item.resolution,
      isImageSafe: item.is_image_safe,
      styleType: item.style_type,
    });
  }
  if (images.length === 0) {
    if (response.data.some((item) => item.is_image_safe === false)) {
      throw new GatewayError('invalid_request', 'the generated image failed the safety check', {
        code: CONTENT_POLICY_CODE,
        errorType: 'upstream.refused',
      });
    }
    throw new GatewayError('upstream', 'upstream answered without any image', { retryable: true });
  }
  return { created: toUnixSeconds(response.created), images };
}

function toUnixSeconds(created: unknown): number {
  if (typeof created === 'number' && Number.isFinite(created)) return Math.floor(created);
  const millis = typeof created === 'string' ? Date.parse(created) : Number.NaN;
  return Number.isNaN(millis) ? nowSeconds() : Math.floor(millis / 1000);
}
