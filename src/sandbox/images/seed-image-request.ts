import { createHash } from 'node:crypto';
import type { ImageInput } from '../../core/image.js';
import { hashSeed, type HashSeed } from '../shared/hash-seed.js';

function digestOf(image: ImageInput): string {
  return createHash('sha256').update(image.data).digest('hex');
}

/**
 * The seed of an image request: a hash of everything that shapes the pictures, with input
 * images stood in for by the hash of their bytes. `responseFormat` only changes the delivery.
 */
export function seedImageRequest(request: { responseFormat?: unknown }): HashSeed {
  const { responseFormat: _responseFormat, ...shaping } = request;
  const text = JSON.stringify(shaping, (_key, value: unknown) => (isImageInput(value) ? `sha256:${digestOf(value)}` : value));
  return hashSeed(text);
}

/** The seed of the `index`-th picture of a request, so that `n` pictures differ. */
export function seedForIndex(requestSeed: HashSeed, index: number): number {
  return hashSeed(`${requestSeed.hex}:${index}`).seed;
}

function isImageInput(value: unknown): value is ImageInput {
  return typeof value === 'object' && value !== null && (value as ImageInput).data instanceof Uint8Array && typeof (value as ImageInput).mediaType === 'string';
}
