/**
 * What a `POST /v1/videos` body carried, before its reference image is decoded or fetched: the
 * same for JSON and multipart. `input_reference` is an uploaded file (multipart), or an image
 * URL / `data:` URL given as text, or as `{image_url}` (OpenAI's reference object; in
 * multipart, openai-node writes it as the field `input_reference[image_url]`).
 */
import { invalidRequest } from '../../core/errors.js';
import { type Json, requireObject } from '../../core/validate.js';
import { requireBody } from '../shared/parse-video-fields.js';

export type ReferenceSource = { kind: 'file'; data: Uint8Array; filename?: string } | { kind: 'url'; value: unknown } | { kind: 'file_id' };

export interface CreateParts {
  /** The other fields (`model`, `prompt`, `seconds`, `size`, …), as sent. */
  fields: Json;
  reference?: ReferenceSource;
}

export const REFERENCE_PARAM = 'input_reference';

/** A JSON body → CreateParts. */
export function jsonCreateParts(body: unknown): CreateParts {
  const { input_reference: reference, ...fields } = requireBody(body);
  if (reference === undefined || reference === null) return { fields };
  if (typeof reference === 'string') return { fields, reference: { kind: 'url', value: reference } };
  const object = requireObject(reference, REFERENCE_PARAM);
  if (object.file_id !== undefined && object.file_id !== null) return { fields, reference: { kind: 'file_id' } };
  if (object.image_url === undefined || object.image_url === null)
    throw invalidRequest(`${REFERENCE_PARAM}: give image_url (an image URL or a data: URL)`, REFERENCE_PARAM);
  return { fields, reference: { kind: 'url', value: object.image_url } };
}
