/** An OpenAI Images answer → the canonical ImageResult (bytes from `b64_json`, else the URL to fetch). */
import { GatewayError } from '../../../core/errors.js';
import { sniffImageType } from '../../../core/image-bytes.js';
import type { ImageResult, ProducedImage } from '../../../core/image.js';
import type { OpenAIImagesResponse } from '../../../core/wire/openai-images-types.js';

const MEDIA_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', webp: 'image/webp' };

export function fromOpenAIImagesResponse(response: OpenAIImagesResponse): ImageResult {
  if (!Array.isArray(response?.data) || response.data.length === 0) {
    throw new GatewayError('upstream', 'upstream answered without images', { retryable: true });
  }
  const declared = response.output_format ? MEDIA_TYPES[response.output_format] : undefined;
  const images = response.data.map((item, i): ProducedImage => {
    const image: ProducedImage = {};
    if (typeof item.b64_json === 'string' && item.b64_json.length > 0) {
      const data = Buffer.from(item.b64_json, 'base64');
      image.data = data;
      image.mediaType = sniffImageType(data) ?? declared ?? 'image/png';
    } else if (typeof item.url === 'string' && item.url.length > 0) {
      image.url = item.url;
      if (declared) image.mediaType = declared;
    } else {
      throw new GatewayError('upstream', `upstream answered image ${i} with neither b64_json nor url`, { retryable: true });
    }
    if (typeof item.revised_prompt === 'string') image.revisedPrompt = item.revised_prompt;
    return image;
  });
  return { created: typeof response.created === 'number' ? response.created : Math.floor(Date.now() / 1000), images };
}
