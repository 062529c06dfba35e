/** Image sizes and aspect ratios as the BFL endpoints accept them. */
import type { ImageSize } from '../../core/image.js';

const STEP = 32;
const MIN_SIDE = 256;
const MAX_SIDE = 1440;
/** Ultra and Kontext take an aspect ratio between 21:9 and 9:21 instead of a size. */
const MAX_RATIO = 21 / 9;

/**
 * BFL answers 422 to a width or height that is not a multiple of 32 within 256–1440, so the
 * requested size is scaled (keeping its aspect ratio) into that range and rounded to the
 * nearest valid values. The client gets an image close to what it asked for rather than an
 * error; the gateway reports the real dimensions read from the image.
 */
export function roundToBflSize(size: ImageSize): ImageSize {
  const longest = Math.max(size.width, size.height);
  const shortest = Math.min(size.width, size.height);
  let scale = longest > MAX_SIDE ? MAX_SIDE / longest : 1;
  if (shortest * scale < MIN_SIDE) scale = MIN_SIDE / shortest;
  return { width: snap(size.width * scale), height: snap(size.height * scale) };
}

/** A size of about one megapixel for an aspect ratio such as `16:9`, for models that want a size. */
export function sizeForAspectRatio(aspectRatio: string): ImageSize | undefined {
  const ratio = parseRatio(aspectRatio);
  if (ratio === undefined) return undefined;
  const area = 1024 * 1024;
  return roundToBflSize({ width: Math.sqrt(area * ratio), height: Math.sqrt(area / ratio) });
}

/** The reduced `W:H` ratio of a size, kept within 21:9 … 9:21. */
export function aspectRatioForSize(size: ImageSize): string {
  const ratio = size.width / size.height;
  if (ratio > MAX_RATIO) return '21:9';
  if (ratio < 1 / MAX_RATIO) return '9:21';
  const width = Math.round(size.width);
  const height = Math.round(size.height);
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function snap(value: number): number {
  return Math.min(MAX_SIDE, Math.max(MIN_SIDE, Math.round(value / STEP) * STEP));
}

function parseRatio(aspectRatio: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(aspectRatio.trim());
  if (!match) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

function gcd(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}
