/**
 * What each MiniMax video model accepts (platform.minimax.io, video generation API): durations,
 * resolutions, and whether it takes, needs or refuses a first-frame image. Models not listed
 * (newer ones reached through a rewrite) get what the request asks, and MiniMax judges it.
 */

export interface MinimaxVideoModel {
  /** Seconds it makes; the first is MiniMax's default. */
  durations: readonly number[];
  /** Resolutions it makes, MiniMax's spelling (`768P`). */
  resolutions: readonly string[];
  /** Resolutions it makes only at 6 s (MiniMax: 1080P is 6 s only). */
  sixSecondsOnly: readonly string[];
  /** Resolutions only image-to-video makes (Hailuo-02's 512P). */
  imageOnly: readonly string[];
  firstFrame: 'optional' | 'required' | 'refused';
}

/** The 01 series: 6 s at 720P, nothing to choose. */
const SERIES_01 = { durations: [6], resolutions: ['720P'], sixSecondsOnly: [], imageOnly: [] } as const;
const HAILUO_23 = { durations: [6, 10], resolutions: ['768P', '1080P'], sixSecondsOnly: ['1080P'], imageOnly: [] } as const;

const MODELS: Readonly<Record<string, MinimaxVideoModel>> = {
  'video-01': { ...SERIES_01, firstFrame: 'optional' },
  'T2V-01': { ...SERIES_01, firstFrame: 'refused' },
  'T2V-01-Director': { ...SERIES_01, firstFrame: 'refused' },
  'I2V-01': { ...SERIES_01, firstFrame: 'required' },
  'I2V-01-Director': { ...SERIES_01, firstFrame: 'required' },
  'I2V-01-live': { ...SERIES_01, firstFrame: 'required' },
  'MiniMax-Hailuo-02': { durations: [6, 10], resolutions: ['768P', '1080P', '512P'], sixSecondsOnly: ['1080P'], imageOnly: ['512P'], firstFrame: 'optional' },
  'MiniMax-Hailuo-2.3': { ...HAILUO_23, firstFrame: 'optional' },
  'MiniMax-Hailuo-2.3-Fast': { ...HAILUO_23, firstFrame: 'required' },
};

/** The upstream model names the provider knows (the environment preset serves them as they are). */
export const MINIMAX_VIDEO_MODELS: readonly string[] = Object.keys(MODELS);

export function minimaxVideoModel(upstreamModel: string): MinimaxVideoModel | undefined {
  return Object.hasOwn(MODELS, upstreamModel) ? MODELS[upstreamModel] : undefined;
}
