/**
 * A multipart `/v1/images/edits` body, as openai-node sends it → EditParts. Files arrive as
 * `image`, repeated `image[]` (or `image[0]`…) and `mask`; every other part is a text field,
 * coerced back to the number or boolean it was. Text `image`/`mask` parts are taken as URLs
 * or data URLs. The whole body is bounded by the gateway's body limit.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../../core/errors.js';
import type { Json } from '../../../core/validate.js';
import { MAX_EDIT_IMAGES, type EditImageSource, type EditParts } from './edit-parts.js';

const IMAGE_FIELD = /^image(?:\[\d*\])?$/;
const INTEGER_FIELDS = new Set(['n', 'seed', 'output_compression', 'partial_images']);
const BOOLEAN_FIELDS = new Set(['stream']);

interface Collected {
  data?: Uint8Array;
  value?: string;
  filename?: string;
}

export async function collectMultipartEdit(request: FastifyRequest, bodyLimit: number): Promise<EditParts> {
  const fields: Json = {};
  const images: Collected[] = [];
  let mask: Collected | undefined;
  let total = 0;
  const tooLarge = () =>
    new GatewayError('request_too_large', `request body is larger than the configured limit of ${bodyLimit} bytes`, { code: 'request_too_large' });
  try {
    for await (const part of request.parts()) {
      let item: Collected;
      if (part.type === 'file') {
        const data = await part.toBuffer();
        total += data.length;
        item = { data, filename: part.filename };
      } else {
        if (part.valueTruncated) throw tooLarge();
        const value = String(part.value);
        total += value.length;
        item = { value };
        if (!IMAGE_FIELD.test(part.fieldname) && part.fieldname !== 'mask') fields[part.fieldname] = coerce(part.fieldname, value);
      }
      if (total > bodyLimit) throw tooLarge();
      if (IMAGE_FIELD.test(part.fieldname)) {
        images.push(item);
        if (images.length > MAX_EDIT_IMAGES) throw tooManyImages();
      } else if (part.fieldname === 'mask') {
        mask = item;
      }
    }
  } catch (error) {
    throw multipartError(error, bodyLimit);
  }
  const parts: EditParts = { fields, images: images.map((item, i) => source(item, images.length === 1 ? 'image' : `image[${i}]`)), imagesParam: 'image' };
  if (mask) parts.mask = source(mask, 'mask');
  return parts;
}

function source(item: Collected, param: string): EditImageSource {
  if (item.data)
    return item.filename === undefined ? { kind: 'bytes', data: item.data, param } : { kind: 'bytes', data: item.data, filename: item.filename, param };
  return { kind: 'string', value: item.value ?? '', param };
}

/** Form fields are text: numbers and booleans written as such are turned back into them (anything else stays text and fails validation). */
function coerce(name: string, value: string): unknown {
  if (INTEGER_FIELDS.has(name) && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  if (BOOLEAN_FIELDS.has(name) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function tooManyImages(): GatewayError {
  return invalidRequest(`image: at most ${MAX_EDIT_IMAGES} images are allowed`, 'image');
}

/** The multipart plugin's and the form parser's errors → GatewayErrors; ours pass through. */
function multipartError(error: unknown, bodyLimit: number): GatewayError {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: string })?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new GatewayError('request_too_large', `an uploaded file is larger than the configured limit of ${bodyLimit} bytes`, { code: 'request_too_large' });
    case 'FST_FILES_LIMIT':
      return tooManyImages();
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalidRequest('body: too many form fields');
  }
  const message = error instanceof Error ? error.message : String(error);
  return invalidRequest(`body: malformed multipart/form-data: ${message}`, 'body');
}
