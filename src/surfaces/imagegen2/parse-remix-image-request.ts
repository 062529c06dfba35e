/** `POST /imagegen2/remix-image` → ImageBlendRequest: 2 to 5 images blended, an optional prompt. */
import { invalidRequest } from '../../core/errors.js';
import type { ImageBlendRequest } from '../../core/image.js';
import { requireArray, requireObject } from '../../core/validate.js';
import type { ImageLoader } from './load-image-value.js';
import { parseCommonFields } from './parse-common-fields.js';
import { optionalPrompt } from './parse-prompt.js';

const MIN_BLEND_IMAGES = 2;
const MAX_BLEND_IMAGES = 5;

export async function parseRemixImageRequest(raw: unknown, loadImage: ImageLoader): Promise<ImageBlendRequest> {
  const body = requireObject(raw, 'body');
  if (body.images === undefined || body.images === null) throw invalidRequest('images: is required (2 to 5 images, each a URL or base64)', 'images');
  const values = requireArray(body.images, 'images');
  if (values.length < MIN_BLEND_IMAGES || values.length > MAX_BLEND_IMAGES) {
    throw invalidRequest(`images: a blend takes ${MIN_BLEND_IMAGES} to ${MAX_BLEND_IMAGES} images, got ${values.length}`, 'images');
  }
  const prompt = optionalPrompt(body.prompt);
  const common = parseCommonFields(body, true);
  const images = await Promise.all(values.map((value, i) => loadImage(value, `images[${i}]`)));
  const request: ImageBlendRequest = { ...common, images };
  if (prompt !== undefined) request.prompt = prompt;
  return request;
}
