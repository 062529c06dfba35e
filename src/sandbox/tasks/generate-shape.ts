/**
 * How many pictures an imagegen1 task draws and how large: `count` 1–4 (default 1), each side
 * 64–2048 (default 1024), and all pictures together within a pixel budget (sides scaled down
 * evenly when over it). Every change to what was asked is said in a warning.
 */
import type { ImageSize } from '../../core/image.js';

const MAX_GENERATE_COUNT = 4;
const MIN_GENERATE_SIDE = 64;
const MAX_GENERATE_SIDE = 2048;
/** Pixels drawn for one task at most: four 1024×1024 pictures, or one 2048×2048. */
export const GENERATE_PIXEL_BUDGET = 4 * 1024 * 1024;
const DEFAULT_SIDE = 1024;

interface GenerateShape {
  count: number;
  size: ImageSize;
}

function clampInt(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

export function chooseGenerateShape(request: { count?: number; width?: number; height?: number }, warn?: (message: string) => void): GenerateShape {
  const count = clampInt(request.count, 1, MAX_GENERATE_COUNT, 1);
  if (request.count !== undefined && count !== request.count) warn?.(`num_outputs: the sandbox draws 1 to ${MAX_GENERATE_COUNT} images, drew ${count}`);
  let width = clampInt(request.width, MIN_GENERATE_SIDE, MAX_GENERATE_SIDE, DEFAULT_SIDE);
  let height = clampInt(request.height, MIN_GENERATE_SIDE, MAX_GENERATE_SIDE, DEFAULT_SIDE);
  const scale = Math.sqrt(GENERATE_PIXEL_BUDGET / (count * width * height));
  if (scale < 1) {
    width = Math.max(MIN_GENERATE_SIDE, Math.floor(width * scale));
    height = Math.max(MIN_GENERATE_SIDE, Math.floor(height * scale));
  }
  const asked = `${request.width ?? DEFAULT_SIDE}x${request.height ?? DEFAULT_SIDE}`;
  if (asked !== `${width}x${height}`) {
    warn?.(
      `width/height: the sandbox draws ${MIN_GENERATE_SIDE}–${MAX_GENERATE_SIDE} pixels a side and ${GENERATE_PIXEL_BUDGET} pixels per task, drew ${width}x${height} instead of ${asked}`,
    );
  }
  return { count, size: { width, height } };
}
