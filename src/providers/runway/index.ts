import type { ProviderDescriptor } from '../types.js';

/**
 * Runway's developer API: Bearer key and `X-Runway-Version: 2024-11-06` (channel option
 * `runwayVersion` replaces it). Video tasks only: `POST /v1/image_to_video` with a first-frame
 * image, else `POST /v1/text_to_video` (Gen-4.5; Gen-4 Turbo needs an image), read with
 * `GET /v1/tasks/{id}`, cancelled with `DELETE /v1/tasks/{id}`. Serves Runway's own model names
 * (`gen4_turbo`, `gen4.5`; Gen-3 Alpha Turbo was retired in July 2026). Polled first after 3 s,
 * then ×1.5 up to 20 s, failed 1 h after creation; channel options `pollIntervalMs` and
 * `deadlineMs` override that.
 */
export const runwayDescriptor: ProviderDescriptor = {
  name: 'runway',
  operations: ['video.generate'],
  defaultBaseUrl: 'https://api.dev.runwayml.com',
  envPreset: {
    keyVar: 'RUNWAYML_API_SECRET',
    baseVar: 'RUNWAY_BASE_URL',
    rewriteVar: 'RUNWAY_MODEL_REWRITE',
    rewrite: [],
    modelMap: {},
    extraModels: ['gen4_turbo', 'gen4.5'],
  },
  taskPolling: { defaults: { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 60 * 60_000, maxBatch: 1 } },
  factory: async () => ({ tasks: (await import('./runway-tasks.js')).createRunwayTaskProvider() }),
};
