/**
 * The fields the OpenAI image endpoints share (`model`, `prompt`, `n`, `size`,
 * `response_format`, `seed`, and the extras that become `options`), from a JSON body or from
 * a multipart form's text fields (already coerced to numbers and booleans where they are ones).
 */
import { invalidRequest } from '../../../core/errors.js';
import type { ImageResponseFormat, ImageSize } from '../../../core/image.js';
import { OPENAI_IMAGE_OPTION_FIELDS, type OpenAIImageOption } from '../../../core/wire/openai-images-types.js';
import { oneOf, optionalBoolean, optionalInteger, optionalString, requireString, type Json } from '../../../core/validate.js';
import { parseImageSize } from './parse-image-size.js';

const MAX_IMAGES_PER_REQUEST = 10;

interface ImageFields {
  model: string;
  prompt: string;
  n: number;
  size?: ImageSize;
  responseFormat: ImageResponseFormat;
  seed?: number;
  options?: Record<string, unknown>;
}

export function parseImageFields(body: Json, operation: 'generate' | 'edit'): ImageFields {
  const model = requireString(body.model, 'model');
  if (model.length === 0) throw invalidRequest('model: must not be empty', 'model');
  const prompt = requireString(body.prompt, 'prompt');
  if (prompt.trim().length === 0) throw invalidRequest('prompt: must not be empty', 'prompt');
  if (optionalBoolean(body.stream, 'stream')) throw invalidRequest('stream: streamed image responses are not supported; omit stream', 'stream');
  const fields: ImageFields = {
    model,
    prompt,
    n: optionalInteger(body.n, 'n', 1, MAX_IMAGES_PER_REQUEST) ?? 1,
    responseFormat:
      body.response_format === undefined || body.response_format === null
        ? 'url'
        : oneOf(body.response_format, 'response_format', ['url', 'b64_json'] as const),
  };
  // The spec's default for edits; generations leave the size to the model.
  const size = parseImageSize(body.size ?? (operation === 'edit' ? '1024x1024' : undefined), 'size');
  if (size) fields.size = size;
  const seed = optionalInteger(body.seed, 'seed');
  if (seed !== undefined) fields.seed = seed;
  const options = parseOptions(body, operation);
  if (options) fields.options = options;
  return fields;
}

function parseOptions(body: Json, operation: 'generate' | 'edit'): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = {};
  for (const [key, wire] of Object.entries(OPENAI_IMAGE_OPTION_FIELDS) as Array<[OpenAIImageOption, string]>) {
    if (key === 'inputFidelity' && operation !== 'edit') continue;
    const value = key === 'outputCompression' ? optionalInteger(body[wire], wire, 0, 100) : optionalString(body[wire], wire);
    if (value !== undefined) options[key] = value;
  }
  return Object.keys(options).length > 0 ? options : undefined;
}
