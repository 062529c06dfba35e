import type { ProviderDescriptor } from '../types.js';
import { MINIMAX_VIDEO_MODELS } from './minimax-models.js';

/**
 * MiniMax video generation (Hailuo): Bearer key, `POST /v1/video_generation` → task id, polled
 * by the task engine through `query/video_generation` and `files/retrieve` (the base URL is the
 * host; one ending in `/v1` is taken as is). The spec's `videogen1-<name>` ids are MiniMax's
 * `<name>` (`videogen1-video-01` → `video-01`). Polled first after 5 s, then ×1.5 up to 30 s,
 * failed an hour after creation; channel options `pollIntervalMs` (a fixed interval instead),
 * `deadlineMs`, and `callbacks: false` (never send MiniMax a callback URL).
 */
export const minimaxDescriptor: ProviderDescriptor = {
  name: 'minimax',
  operations: ['video.generate'],
  defaultBaseUrl: 'https://api.minimax.io',
  envPreset: {
    keyVar: 'MINIMAX_API_KEY',
    baseVar: 'MINIMAX_BASE_URL',
    rewriteVar: 'MINIMAX_MODEL_REWRITE',
    rewrite: [{ from: 'videogen1-', to: '' }],
    modelMap: {},
    extraModels: [...MINIMAX_VIDEO_MODELS, 'MiniMax-Hailuo-*'],
  },
  taskPolling: { defaults: { firstDelayMs: 5_000, factor: 1.5, maxDelayMs: 30_000, deadlineMs: 60 * 60_000, maxBatch: 1 } },
  factory: async () => ({ tasks: (await import('./minimax-task-provider.js')).createMinimaxTaskProvider() }),
};
