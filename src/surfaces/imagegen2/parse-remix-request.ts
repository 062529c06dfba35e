/** `POST /imagegen2/remix` → ImageRemixRequest: one image steered by a prompt, `image_weight` 0–1. */
import { invalidRequest } from '../../core/errors.js';
import type { ImageRemixRequest } from '../../core/image.js';
import { optionalNumber, requireObject } from '../../core/validate.js';
import type { ImageLoader } from './load-image-value.js';
import { parseCommonFields } from './parse-common-fields.js';
import { requirePrompt } from './parse-prompt.js';

export async function parseRemixRequest(raw: unknown, loadImage: ImageLoader): Promise<ImageRemixRequest> {
  const body = requireObject(raw, 'body');
  if (body.image === undefined || body.image === null) throw invalidRequest('image: is required (a URL or base64 image)', 'image');
  const prompt = requirePrompt(body.prompt);
  const imageWeight = optionalNumber(body.image_weight, 'image_weight', 0, 1);
  const common = parseCommonFields(body, true);
  // Images are loaded last, so a bad field is reported without fetching anything.
  const image = await loadImage(body.image, 'image');
  const request: ImageRemixRequest = { ...common, prompt, image };
  if (imageWeight !== undefined) request.imageWeight = imageWeight;
  return request;
}
