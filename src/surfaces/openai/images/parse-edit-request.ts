/**
 * EditParts (from JSON or multipart) → the canonical edit request: fields validated, images
 * decoded (uploads, base64, data URLs) or fetched (http(s) URLs, through the gateway's guarded
 * fetch), every image checked to be one within the gateway's image limits (from its header,
 * before anything decodes it, and all of them together), the mask checked to mark something.
 */
import { invalidRequest } from '../../../core/errors.js';
import { DEFAULT_IMAGE_LIMITS, decodeImageString, toImageInput, type ImageLimits } from '../../../core/image-bytes.js';
import { ImagePixelBudget } from '../../../core/image-pixel-budget.js';
import type { ImageEditRequest, ImageInput } from '../../../core/image.js';
import { checkEditMask } from './check-edit-mask.js';
import { MAX_EDIT_IMAGES, type EditImageSource, type EditParts } from './edit-parts.js';
import { parseImageFields } from './parse-image-fields.js';

type FetchImage = (url: string, param: string) => Promise<ImageInput>;

export async function parseOpenAIEditRequest(parts: EditParts, fetchImage: FetchImage, limits: ImageLimits = DEFAULT_IMAGE_LIMITS): Promise<ImageEditRequest> {
  const fields = parseImageFields(parts.fields, 'edit');
  const { images: sources, imagesParam } = parts;
  if (sources.length === 0) throw invalidRequest(`${imagesParam}: is required`, imagesParam);
  if (sources.length > MAX_EDIT_IMAGES) {
    throw invalidRequest(`${imagesParam}: at most ${MAX_EDIT_IMAGES} images are allowed, got ${sources.length}`, imagesParam);
  }
  const [images, mask] = await Promise.all([
    Promise.all(sources.map((source) => resolveImage(source, fetchImage, limits))),
    parts.mask ? resolveImage(parts.mask, fetchImage, limits) : undefined,
  ]);
  const budget = ImagePixelBudget.forImageCap(limits.maxPixels);
  images.forEach((image, i) => budget.take(image, sources[i].param));
  if (mask && parts.mask) budget.take(mask, parts.mask.param);
  const request: ImageEditRequest = { ...fields, images };
  if (mask) {
    await checkEditMask(mask);
    request.mask = mask;
  }
  return request;
}

async function resolveImage(source: EditImageSource, fetchImage: FetchImage, limits: ImageLimits): Promise<ImageInput> {
  if (source.kind === 'bytes') return toImageInput(source.data, source.param, { ...limits, filename: source.filename });
  const value = source.value.trim();
  if (/^https?:\/\//i.test(value)) {
    const fetched = await fetchImage(value, source.param);
    return toImageInput(fetched.data, source.param, { ...limits, filename: fetched.filename });
  }
  if (!value.startsWith('data:') && /^[a-z][a-z0-9+.-]*:/i.test(value)) {
    throw invalidRequest(`${source.param}: expected an http(s) URL, a base64 data URL or base64 data`, source.param);
  }
  return decodeImageString(value, source.param, limits);
}
