import type { ProviderDescriptor } from '../types.js';

/** Tasks per read of the task list (`filter.task_ids`). */
const ARK_MAX_BATCH = 50;

/**
 * Volcengine Ark content generation tasks (Seedance video): Bearer key, routes under
 * `/api/v3/contents/generations/tasks` of the base URL (a base URL already ending in `/api/v3`
 * is taken as is; BytePlus is `https://ark.ap-southeast.bytepluses.com`). Public ids:
 * `videogen2-1-0-lite` → the lite family, made text-to-video or image-to-video per request
 * (see `ark-models.ts`), `videogen2-video-1` → Seedance 1.0 pro, any other `videogen2-*` →
 * `doubao-seedance-*` (`videogen2-1-0-lite-i2v-250428` → `doubao-seedance-1-0-lite-i2v-250428`),
 * and Ark's own `doubao-seedance-*` names as they are. Settings ride in the prompt text as
 * `--name value`; polled after 3 s, then ×1.5 up to 20 s, given up after 1 h (channel options
 * `pollIntervalMs`, `deadlineMs`), up to 50 tasks per read of the task list.
 */
export const arkDescriptor: ProviderDescriptor = {
  name: 'ark',
  operations: ['video.generate'],
  defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
  envPreset: {
    keyVar: 'ARK_API_KEY',
    baseVar: 'ARK_BASE_URL',
    rewriteVar: 'ARK_MODEL_REWRITE',
    rewrite: [{ from: 'videogen2-', to: 'doubao-seedance-' }],
    modelMap: {
      'videogen2-1-0-lite': 'doubao-seedance-1-0-lite',
      'videogen2-video-1': 'doubao-seedance-1-0-pro-250528',
    },
    extraModels: ['doubao-seedance-*'],
  },
  taskPolling: {
    defaults: { firstDelayMs: 3_000, factor: 1.5, maxDelayMs: 20_000, deadlineMs: 60 * 60_000, maxBatch: ARK_MAX_BATCH },
    maxDeadlineMs: 48 * 60 * 60_000,
  },
  factory: async () => ({ tasks: (await import('./ark-task-provider.js')).createArkTaskProvider(ARK_MAX_BATCH) }),
};
