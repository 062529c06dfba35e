import type { ProviderDescriptor } from '../types.js';

/**
 * Luma AI's Dream Machine API (Ray video models): Bearer key, routes under `/dream-machine/v1`
 * on the base URL (Luma's host; a base URL already ending in `/dream-machine/v1` is taken as is).
 * Video tasks only: created with `POST /generations/video`, read with `GET /generations/{id}`,
 * deleted on cancel. Serves videogen3 (`videogen3-ray-2` → `ray-2`, `videogen3-*` → `*`) and
 * Luma's own model names. Polled first after 3 s, then ×1.5 up to 20 s, failed 1 h after
 * creation; channel options `pollIntervalMs` and `deadlineMs` override that.
 */
export const lumaDescriptor: ProviderDescriptor = {
  name: 'luma',
  operations: ['video.generate'],
  defaultBaseUrl: 'https://api.lumalabs.ai',
  envPreset: {
    keyVar: 'LUMA_API_KEY',
    baseVar: 'LUMA_BASE_URL',
    rewriteVar: 'LUMA_MODEL_REWRITE',
    rewrite: [{ from: 'videogen3-', to: '' }],
    modelMap: { 'videogen3-ray-2': 'ray-2' },
    extraModels: ['ray-2', 'ray-flash-2', 'ray-1-6'],
  },
  taskPolling: { defaults: { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 60 * 60_000, maxBatch: 1 } },
  factory: async () => ({ tasks: (await import('./luma-tasks.js')).createLumaTaskProvider() }),
};
