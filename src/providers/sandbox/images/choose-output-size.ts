/**
 * The size of a sandbox output: the requested size, else one derived from the aspect ratio,
 * else a fallback (an input image's size, scaled down to fit the largest side a client may ask for).
 */
import type { ImageSize } from '../../../core/image.js';

export const DEFAULT_IMAGE_SIZE: ImageSize = { width: 1024, height: 1024 };

const TARGET_PIXELS = 1024 * 1024;
const MIN_SIDE = 64;
const MAX_SIDE = 4096;

function roundSide(value: number): number {
  return Math.min(MAX_SIDE, Math.max(MIN_SIDE, Math.round(value / 64) * 64));
}

/** `16:9` → about one megapixel in that ratio, sides in multiples of 64; undefined if not a ratio. */
export function sizeForAspectRatio(ratio: string): ImageSize | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*[:x]\s*(\d+(?:\.\d+)?)\s*$/i.exec(ratio);
  if (!match) return undefined;
  const r = Number(match[1]) / Number(match[2]);
  if (!Number.isFinite(r) || r <= 0) return undefined;
  const width = Math.sqrt(TARGET_PIXELS * r);
  return { width: roundSide(width), height: roundSide(width / r) };
}

/** `size` scaled down, keeping its aspect ratio, until neither side exceeds MAX_SIDE. */
export function fitWithinMaxSide(size: ImageSize): ImageSize {
  const scale = Math.min(1, MAX_SIDE / Math.max(size.width, size.height));
  if (scale === 1) return size;
  return { width: Math.max(1, Math.round(size.width * scale)), height: Math.max(1, Math.round(size.height * scale)) };
}

export function chooseOutputSize(request: { size?: ImageSize; aspectRatio?: string }, fallback: ImageSize = DEFAULT_IMAGE_SIZE): ImageSize {
  if (request.size) return request.size;
  const fromRatio = request.aspectRatio ? sizeForAspectRatio(request.aspectRatio) : undefined;
  return fromRatio ?? fitWithinMaxSide(fallback);
}
