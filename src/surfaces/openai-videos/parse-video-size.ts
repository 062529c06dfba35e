/**
 * OpenAI's `size` ("1280x720", "1024x1792", …) → the canonical aspect ratio and resolution the
 * video providers take, keeping the asked width and height. The ratio is the nearest standard
 * one (within 3%: 1024x1792 is 9:16), the resolution the standard one nearest the short side
 * (1024 is 1080p). Shapes no provider makes are a 400 naming `size`.
 */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { requireString } from '../../core/validate.js';

interface VideoSize {
  width: number;
  height: number;
  aspectRatio: string;
  resolution: string;
}

const SIZE = /^(\d{1,5})x(\d{1,5})$/;
const RATIOS = ['16:9', '9:16', '4:3', '3:4', '1:1', '21:9'] as const;
const RATIO_TOLERANCE = 0.03;
const RESOLUTIONS = [480, 720, 1080] as const;
/** Short sides the standard resolutions stand for (360 up to just under 1440). */
const MIN_SHORT_SIDE = 360;
const MAX_SHORT_SIDE = 1300;
const MAX_SIDE = 4096;

export function parseVideoSize(value: unknown, param: string): VideoSize {
  const text = requireString(value, param).trim();
  const match = SIZE.exec(text);
  if (!match) throw invalidRequest(`${param}: must be width x height in pixels such as "1280x720", got ${describeValue(value)}`, param);
  const width = Number(match[1]);
  const height = Number(match[2]);
  const short = Math.min(width, height);
  if (short < MIN_SHORT_SIDE || short > MAX_SHORT_SIDE || Math.max(width, height) > MAX_SIDE)
    throw invalidRequest(`${param}: ${width}x${height} is outside the sizes video models make (480p to 1080p, such as "1280x720")`, param);
  const aspectRatio = nearestRatio(width / height);
  if (aspectRatio === undefined)
    throw invalidRequest(`${param}: ${width}x${height} is not a supported shape; use one of ${RATIOS.join(', ')} (such as "1280x720" or "720x1280")`, param);
  return { width, height, aspectRatio, resolution: `${nearestResolution(short)}p` };
}

function nearestRatio(ratio: number): string | undefined {
  for (const name of RATIOS) {
    const [w, h] = name.split(':').map(Number);
    if (Math.abs(ratio / (w / h) - 1) <= RATIO_TOLERANCE) return name;
  }
  return undefined;
}

function nearestResolution(short: number): number {
  return RESOLUTIONS.reduce((best, lines) => (Math.abs(lines - short) < Math.abs(best - short) ? lines : best));
}
