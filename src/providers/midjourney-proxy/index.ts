import type { ProviderDescriptor } from '../types.js';

/** Ids per `list-by-condition`. */
const MJ_MAX_BATCH = 50;

/**
 * An MJ-proxy server (midjourney-proxy and its forks): header `mj-api-secret`, routes under
 * `/mj` (the base URL is the proxy's host; a base URL ending in `/mj` is taken as is), image
 * tasks only. No default base URL: every proxy is someone's own server, so `MJ_PROXY_BASE_URL`
 * must be set with `MJ_PROXY_API_SECRET`. Serves the public `imgtask-*` ids (the proxy has no
 * model names; the operation decides the route). Polled first after 2 s, then ×1.5 up to 15 s,
 * failed 2 h after creation, 50 tasks per `list-by-condition`; channel options
 * `pollIntervalMs` (a fixed interval instead) and `deadlineMs` override that.
 */
export const midjourneyProxyDescriptor: ProviderDescriptor = {
  name: 'midjourney-proxy',
  operations: ['image.imagine', 'image.blend', 'image.describe', 'image.action'],
  envPreset: {
    keyVar: 'MJ_PROXY_API_SECRET',
    baseVar: 'MJ_PROXY_BASE_URL',
    rewriteVar: 'MJ_PROXY_MODEL_REWRITE',
    rewrite: [],
    modelMap: {},
    extraModels: ['imgtask-*'],
  },
  taskPolling: { defaults: { firstDelayMs: 2_000, factor: 1.5, maxDelayMs: 15_000, deadlineMs: 2 * 60 * 60_000, maxBatch: MJ_MAX_BATCH } },
  factory: async () => ({ tasks: (await import('./mj-task-provider.js')).createMjTaskProvider(MJ_MAX_BATCH) }),
};
