/**
 * The fields every imagegen2 endpoint shares, in Ideogram's names: model, `num_images`,
 * `seed`, `response_format`, the Ideogram style settings (kept in `options` under their own
 * names) and, where the result's size is chosen, `aspect_ratio` or `resolution`.
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageGenerateRequest, ImageResponseFormat } from '../../core/image.js';
import {
  IDEOGRAM_ASPECT_RATIOS,
  IDEOGRAM_MAGIC_PROMPT_OPTIONS,
  IDEOGRAM_RENDERING_SPEEDS,
  IDEOGRAM_RESOLUTIONS,
  IDEOGRAM_STYLE_TYPES,
  normalizeIdeogramAspectRatio,
} from '../../core/wire/ideogram-types.js';
import { oneOf, optionalInteger, optionalString, type Json } from '../../core/validate.js';
import { describeValue } from '../../core/describe-value.js';

const DEFAULT_IMAGEGEN2_MODEL = 'imagegen2-v3';

type CommonFields = Pick<ImageGenerateRequest, 'model' | 'n' | 'seed' | 'size' | 'aspectRatio' | 'responseFormat' | 'options'>;

const ENUM_OPTIONS = [
  ['rendering_speed', IDEOGRAM_RENDERING_SPEEDS],
  ['style_type', IDEOGRAM_STYLE_TYPES],
  ['magic_prompt', IDEOGRAM_MAGIC_PROMPT_OPTIONS],
] as const;
const TEXT_OPTIONS = ['negative_prompt', 'style_preset'] as const;

/** `sizing`: whether the endpoint lets the client choose the output size (edit keeps the image's). */
export function parseCommonFields(body: Json, sizing: boolean): CommonFields {
  const model = optionalString(body.model, 'model') ?? DEFAULT_IMAGEGEN2_MODEL;
  if (model.trim() === '') throw invalidRequest('model: must not be empty', 'model');
  const fields: CommonFields = {
    model,
    n: optionalInteger(body.num_images, 'num_images', 1, 8) ?? 1,
    responseFormat: parseResponseFormat(body.response_format),
  };
  const seed = optionalInteger(body.seed, 'seed', 0, 2_147_483_647);
  if (seed !== undefined) fields.seed = seed;
  if (sizing) Object.assign(fields, parseSize(body));
  const options = parseOptions(body);
  if (options) fields.options = options;
  return fields;
}

function parseResponseFormat(value: unknown): ImageResponseFormat {
  if (value === undefined || value === null) return 'url';
  return oneOf(value, 'response_format', ['url', 'b64_json'] as const);
}

function parseSize(body: Json): Pick<CommonFields, 'size' | 'aspectRatio'> {
  const aspectRatio = optionalString(body.aspect_ratio, 'aspect_ratio');
  const resolution = optionalString(body.resolution, 'resolution');
  if (aspectRatio !== undefined && resolution !== undefined) {
    throw invalidRequest('aspect_ratio: cannot be used together with resolution; give one or the other', 'aspect_ratio');
  }
  if (aspectRatio !== undefined) {
    const ratio = normalizeIdeogramAspectRatio(aspectRatio);
    if (!ratio)
      throw invalidRequest(
        `aspect_ratio: must be one of ${IDEOGRAM_ASPECT_RATIOS.join(', ')} (or written 16x9), got ${describeValue(aspectRatio)}`,
        'aspect_ratio',
      );
    return { aspectRatio: ratio };
  }
  if (resolution !== undefined) {
    if (!IDEOGRAM_RESOLUTIONS.has(resolution))
      throw invalidRequest(`resolution: ${describeValue(resolution)} is not one of Ideogram's resolutions, such as 1024x1024 or 1344x768`, 'resolution');
    const [width, height] = resolution.split('x').map(Number);
    return { size: { width, height } };
  }
  return {};
}

function parseOptions(body: Json): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = {};
  for (const [name, allowed] of ENUM_OPTIONS) {
    if (body[name] !== undefined && body[name] !== null) options[name] = oneOf(body[name], name, allowed);
  }
  for (const name of TEXT_OPTIONS) {
    const value = optionalString(body[name], name);
    if (value) options[name] = value;
  }
  return Object.keys(options).length > 0 ? options : undefined;
}
