/**
 * Delivered images → Ideogram's answer `{created, data:[{url, prompt, resolution,
 * is_image_safe, seed, style_type}]}`, `created` as an ISO date-time. With `b64_json` asked,
 * each image carries `b64_json` instead of `url`.
 */
import type { DeliveredImage, DeliveredImages } from '../../core/image.js';
import type { IdeogramImageObject, IdeogramImageResponse } from '../../core/wire/ideogram-types.js';

/** What the client asked that the answer echoes when the upstream did not say. */
interface RequestEcho {
  prompt?: string;
  seed?: number;
  options?: Record<string, unknown>;
}

const DEFAULT_STYLE_TYPE = 'GENERAL';

export function renderImagegen2Response(result: DeliveredImages, echo: RequestEcho): IdeogramImageResponse {
  return {
    created: new Date(result.created * 1000).toISOString(),
    data: result.images.map((image, index) => renderImage(image, index, echo)),
  };
}

function renderImage(image: DeliveredImage, index: number, echo: RequestEcho): IdeogramImageObject {
  const object: IdeogramImageObject = {
    prompt: image.revisedPrompt ?? echo.prompt ?? '',
    // The delivered bytes are the truth about the size; the upstream's word is the fallback.
    resolution: image.width && image.height ? `${image.width}x${image.height}` : (image.resolution ?? ''),
    is_image_safe: image.isImageSafe ?? true,
    seed: image.seed ?? (echo.seed !== undefined ? echo.seed + index : 0),
    style_type: image.styleType ?? (typeof echo.options?.style_type === 'string' ? echo.options.style_type : DEFAULT_STYLE_TYPE),
  };
  if (image.b64Json !== undefined) return { b64_json: image.b64Json, ...object };
  return { url: image.url ?? null, ...object };
}
