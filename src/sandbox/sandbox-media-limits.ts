/** The sandbox's media size limits from its settings: each a whole number within what the sandbox can make, else the default. */
import type { SandboxSettings } from './sandbox-settings.js';
import { MAX_SIDE } from './images/choose-output-size.js';
import { SANDBOX_MEDIA_DEFAULTS } from './sandbox-defaults.js';
import { MAX_SHORT_SIDE, MAX_VIDEO_SECONDS, MIN_SHORT_SIDE, MIN_VIDEO_SECONDS } from './video/choose-video-shape.js';

export type SandboxMediaLimits = Pick<SandboxSettings, 'maxImageSide' | 'maxVideoShortSide' | 'maxVideoSeconds' | 'maxVideoBytes'>;

function within(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min ? Math.min(max, value) : fallback;
}

export function sandboxMediaLimits(settings: Partial<SandboxMediaLimits> | undefined): SandboxMediaLimits {
  const defaults = SANDBOX_MEDIA_DEFAULTS;
  return {
    maxImageSide: within(settings?.maxImageSide, 1, MAX_SIDE, defaults.maxImageSide),
    maxVideoShortSide: within(settings?.maxVideoShortSide, MIN_SHORT_SIDE, MAX_SHORT_SIDE, defaults.maxVideoShortSide),
    maxVideoSeconds: within(settings?.maxVideoSeconds, MIN_VIDEO_SECONDS, MAX_VIDEO_SECONDS, defaults.maxVideoSeconds),
    maxVideoBytes: within(settings?.maxVideoBytes, 1, Number.MAX_SAFE_INTEGER, defaults.maxVideoBytes),
  };
}
