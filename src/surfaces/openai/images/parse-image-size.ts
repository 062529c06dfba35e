/** OpenAI's `size` (`WxH` or `auto`) → a canonical size; `auto` leaves the choice to the model. */
import { invalidRequest } from '../../../core/errors.js';
import type { ImageSize } from '../../../core/image.js';
import { describe } from '../../../core/validate.js';
import { describeValue } from '../../../core/describe-value.js';

const MIN_IMAGE_SIDE = 64;
const MAX_IMAGE_SIDE = 4096;

export function parseImageSize(value: unknown, param: string): ImageSize | undefined {
  if (value === undefined || value === null || value === 'auto') return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${param}: expected a string like "1024x1024" or "auto", got ${describe(value)}`, param);
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(value.trim());
  if (!match) throw invalidRequest(`${param}: expected WIDTHxHEIGHT like "1024x1024", or "auto", got ${describeValue(value)}`, param);
  const width = Number(match[1]);
  const height = Number(match[2]);
  for (const side of [width, height]) {
    if (side < MIN_IMAGE_SIDE || side > MAX_IMAGE_SIDE) {
      throw invalidRequest(`${param}: each side must be between ${MIN_IMAGE_SIDE} and ${MAX_IMAGE_SIDE} pixels, got ${describeValue(value)}`, param);
    }
  }
  return { width, height };
}
