/**
 * What each Runway video model takes (from Runway's API reference): whether it makes videos from
 * text alone, the `ratio` values it accepts by aspect ratio, and its durations. A model not
 * listed (a channel rewriting to a newer one) is sent what was asked and left to Runway to judge.
 */

export interface RunwayModel {
  /** `POST /v1/text_to_video` exists for it; otherwise it needs a first-frame image. */
  textToVideo: boolean;
  /** Aspect ratio → `ratio`, per route. All Gen-4 sizes are 720p-class. */
  imageRatios: Readonly<Record<string, string>>;
  textRatios: Readonly<Record<string, string>>;
  resolutions: readonly string[];
  /** Whole seconds, inclusive. */
  seconds: { min: number; max: number };
  /** `promptText` is required even with an image. */
  needsPromptText: boolean;
}

const GEN4_IMAGE_RATIOS = { '16:9': '1280:720', '9:16': '720:1280', '4:3': '1104:832', '3:4': '832:1104', '1:1': '960:960', '21:9': '1584:672' };

const RUNWAY_MODELS: Readonly<Record<string, RunwayModel>> = {
  gen4_turbo: {
    textToVideo: false,
    imageRatios: GEN4_IMAGE_RATIOS,
    textRatios: {},
    resolutions: ['720p'],
    seconds: { min: 2, max: 10 },
    needsPromptText: false,
  },
  'gen4.5': {
    textToVideo: true,
    imageRatios: GEN4_IMAGE_RATIOS,
    textRatios: { '16:9': '1280:720', '9:16': '720:1280' },
    resolutions: ['720p'],
    seconds: { min: 2, max: 10 },
    needsPromptText: true,
  },
};

/** For models not listed: Runway's common sizes, 720p and 1080p. */
export const UNLISTED_RATIOS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '720p': GEN4_IMAGE_RATIOS,
  '1080p': { '16:9': '1920:1080', '9:16': '1080:1920' },
};

export function runwayModel(upstreamModel: string): RunwayModel | undefined {
  return Object.hasOwn(RUNWAY_MODELS, upstreamModel) ? RUNWAY_MODELS[upstreamModel] : undefined;
}
