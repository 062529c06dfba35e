/**
 * `POST /imagegen2/edit` → ImageEditRequest: the image, the instruction, and optionally a mask
 * (Ideogram's convention, black = edit, turned canonical). The result keeps the image's size.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageEditRequest } from '../../core/image.js';
import { requireObject } from '../../core/validate.js';
import type { ImageLoader } from './load-image-value.js';
import { parseCommonFields } from './parse-common-fields.js';
import { requirePrompt } from './parse-prompt.js';
import { toCanonicalMask } from './to-canonical-mask.js';

export async function parseEditRequest(raw: unknown, loadImage: ImageLoader): Promise<ImageEditRequest> {
  const body = requireObject(raw, 'body');
  if (body.image === undefined || body.image === null) throw invalidRequest('image: is required (a URL or base64 image)', 'image');
  const prompt = requirePrompt(body.prompt);
  const common = parseCommonFields(body, false);
  const hasMask = body.mask !== undefined && body.mask !== null;
  const [image, mask] = await Promise.all([loadImage(body.image, 'image'), hasMask ? loadImage(body.mask, 'mask') : undefined]);
  const request: ImageEditRequest = { ...common, prompt, images: [image] };
  if (mask) request.mask = await toCanonicalMask(mask);
  return request;
}
