/**
 * The frame size, frame rate and length of a sandbox video, from the canonical request: the
 * resolution names the short side (`720p` → 720), the aspect ratio the long side (16:9 at
 * 720p → 1280×720, 9:16 → 720×1280). Out-of-bounds values are refused naming the field.
 */
import { invalidRequest } from '../../core/errors.js';

const VIDEO_FPS = 8;
export const MIN_VIDEO_SECONDS = 1;
export const MAX_VIDEO_SECONDS = 20;
const DEFAULT_VIDEO_SECONDS = 5;
export const MIN_SHORT_SIDE = 144;
export const MAX_SHORT_SIDE = 1080;
const MAX_LONG_SIDE = 2560;
const DEFAULT_RESOLUTION = '720p';
const DEFAULT_ASPECT_RATIO = '16:9';

interface VideoShape {
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** The clip's real length: `frames / fps`. */
  seconds: number;
}

function even(value: number): number {
  return 2 * Math.round(value / 2);
}

function shortSide(resolution: string, maxShortSide: number): number {
  const match = /^(\d{1,5})p$/i.exec(resolution.trim());
  const side = match ? Number(match[1]) : Number.NaN;
  if (!(side >= MIN_SHORT_SIDE && side <= maxShortSide)) {
    throw invalidRequest(`resolution: the sandbox makes ${MIN_SHORT_SIDE}p to ${maxShortSide}p videos (such as 480p, 720p), not "${resolution}"`, 'resolution');
  }
  return even(side);
}

function ratio(aspectRatio: string): { across: number; down: number } {
  const match = /^(\d{1,3}):(\d{1,3})$/.exec(aspectRatio.trim());
  const across = match ? Number(match[1]) : 0;
  const down = match ? Number(match[2]) : 0;
  if (across < 1 || down < 1) throw invalidRequest(`aspectRatio: expected width:height such as 16:9, 9:16 or 1:1, not "${aspectRatio}"`, 'aspectRatio');
  return { across, down };
}

/** `limits`: `sandbox.maxVideoShortSide` and `sandbox.maxVideoSeconds` (within MAX_SHORT_SIDE and MAX_VIDEO_SECONDS). */
export function chooseVideoShape(
  request: { seconds?: number; resolution?: string; aspectRatio?: string },
  limits: { maxVideoShortSide: number; maxVideoSeconds: number } = { maxVideoShortSide: MAX_SHORT_SIDE, maxVideoSeconds: MAX_VIDEO_SECONDS },
): VideoShape {
  const asked = request.seconds ?? Math.min(DEFAULT_VIDEO_SECONDS, limits.maxVideoSeconds);
  if (!Number.isFinite(asked) || asked < MIN_VIDEO_SECONDS || asked > limits.maxVideoSeconds) {
    throw invalidRequest(`seconds: the sandbox makes videos of ${MIN_VIDEO_SECONDS} to ${limits.maxVideoSeconds} seconds, not ${asked}`, 'seconds');
  }
  const resolution = request.resolution ?? (limits.maxVideoShortSide < 720 ? `${limits.maxVideoShortSide}p` : DEFAULT_RESOLUTION);
  const short = shortSide(resolution, limits.maxVideoShortSide);
  const { across, down } = ratio(request.aspectRatio ?? DEFAULT_ASPECT_RATIO);
  const long = even((short * Math.max(across, down)) / Math.min(across, down));
  if (long > MAX_LONG_SIDE) {
    throw invalidRequest(`aspectRatio: ${across}:${down} at ${short}p is ${long} pixels long, the sandbox draws at most ${MAX_LONG_SIDE}`, 'aspectRatio');
  }
  const [width, height] = across >= down ? [long, short] : [short, long];
  const frames = Math.max(1, Math.round(asked * VIDEO_FPS));
  return { width, height, fps: VIDEO_FPS, frames, seconds: frames / VIDEO_FPS };
}
