/**
 * The size of a sandbox output: the requested size, else one derived from the aspect ratio,
 * else a fallback (an input image's own size), never more than `maxSide` a side
 * (`sandbox.maxImageSide`, at most MAX_SIDE).
 */
import { invalidRequest } from '../../core/errors.js';
import type { ImageSize } from '../../core/image.js';

const DEFAULT_IMAGE_SIZE: ImageSize = { width: 1024, height: 1024 };

const TARGET_PIXELS = 1024 * 1024;
const MIN_SIDE = 64;
/** The longest side the sandbox ever draws (`sandbox.maxImageSide` may set less). */
export const MAX_SIDE = 4096;

function roundSide(value: number, maxSide: number): number {
  return Math.min(maxSide, Math.max(Math.min(MIN_SIDE, maxSide), Math.round(value / 64) * 64));
}

/** `16:9` → about one megapixel in that ratio, sides in multiples of 64; undefined if not a ratio. */
export function sizeForAspectRatio(ratio: string, maxSide = MAX_SIDE): ImageSize | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*[:x]\s*(\d+(?:\.\d+)?)\s*$/i.exec(ratio);
  if (!match) return undefined;
  const r = Number(match[1]) / Number(match[2]);
  if (!Number.isFinite(r) || r <= 0) return undefined;
  const width = Math.sqrt(TARGET_PIXELS * r);
  return { width: roundSide(width, maxSide), height: roundSide(width / r, maxSide) };
}

/** A size a client asked for, refused unless each side is a whole number of 1 to `maxSide` pixels. */
export function checkRequestedSize(size: ImageSize, maxSide = MAX_SIDE): ImageSize {
  for (const side of [size.width, size.height]) {
    if (!Number.isInteger(side) || side < 1 || side > maxSide) {
      throw invalidRequest(`size: the sandbox draws images of 1 to ${maxSide} pixels a side, got ${size.width}x${size.height}`, 'size');
    }
  }
  return size;
}

/** The size scaled down (keeping its ratio) so that no side exceeds `maxSide`. */
export function fitWithinMaxSide(size: ImageSize, maxSide = MAX_SIDE): ImageSize {
  const scale = maxSide / Math.max(size.width, size.height);
  if (scale >= 1) return size;
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

export function chooseOutputSize(request: { size?: ImageSize; aspectRatio?: string }, fallback: ImageSize = DEFAULT_IMAGE_SIZE, maxSide = MAX_SIDE): ImageSize {
  if (request.size) return checkRequestedSize(request.size, maxSide);
  const fromRatio = request.aspectRatio ? sizeForAspectRatio(request.aspectRatio, maxSide) : undefined;
  return fromRatio ?? fitWithinMaxSide(fallback, maxSide);
}
