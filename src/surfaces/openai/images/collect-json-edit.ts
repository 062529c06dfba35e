/**
 * A JSON `/v1/images/edits` body → EditParts. Images come as `image` (a URL or data URL
 * string, or a list of them) or as `images:[{image_url}]`; the mask as a string or
 * `{image_url}`. `image_url` may also be `{url}`, as in chat content parts.
 */
import { invalidRequest } from '../../../core/errors.js';
import { describe, requireArray, requireObject, requireString } from '../../../core/validate.js';
import type { EditImageSource, EditParts } from './edit-parts.js';

export function collectJsonEdit(body: unknown): EditParts {
  const json = requireObject(body, 'body');
  const images: EditImageSource[] = [];
  let imagesParam = 'image';
  if (json.image !== undefined && json.image !== null) {
    if (typeof json.image === 'string') images.push({ kind: 'string', value: json.image, param: 'image' });
    else if (Array.isArray(json.image))
      json.image.forEach((value, i) => images.push({ kind: 'string', value: requireString(value, `image[${i}]`), param: `image[${i}]` }));
    else throw invalidRequest(`image: expected a URL or data URL string, or a list of them, got ${describe(json.image)}`, 'image');
  }
  if (json.images !== undefined && json.images !== null) {
    imagesParam = 'images';
    requireArray(json.images, 'images').forEach((item, i) => images.push(reference(item, `images[${i}]`)));
  }
  const parts: EditParts = { fields: json, images, imagesParam };
  if (json.mask !== undefined && json.mask !== null) {
    parts.mask = typeof json.mask === 'string' ? { kind: 'string', value: json.mask, param: 'mask' } : reference(json.mask, 'mask');
  }
  return parts;
}

function reference(value: unknown, param: string): EditImageSource {
  const item = requireObject(value, param);
  if (item.file_id !== undefined && item.file_id !== null) {
    throw invalidRequest(`${param}.file_id: file_id is not supported; send image_url with a URL or a data URL`, `${param}.file_id`);
  }
  const url = item.image_url;
  if (typeof url === 'string') return { kind: 'string', value: url, param: `${param}.image_url` };
  if (url !== null && typeof url === 'object' && !Array.isArray(url)) {
    return { kind: 'string', value: requireString((url as Record<string, unknown>).url, `${param}.image_url.url`), param: `${param}.image_url.url` };
  }
  if (url === undefined || url === null) throw invalidRequest(`${param}.image_url: is required`, `${param}.image_url`);
  throw invalidRequest(`${param}.image_url: expected a URL or data URL string, got ${describe(url)}`, `${param}.image_url`);
}
