import type { ProviderDescriptor } from '../types.js';

/**
 * Replicate: Bearer token, upstream model `owner/name` (official models) or
 * `owner/name:version`; predictions created with `Prefer: wait` and polled within the
 * channel's `timeoutMs` (channel option `pollIntervalMs`, default 500). As a task provider
 * (imagegen1) the prediction is created at submit and polled by the task engine; channel option
 * `webhookSecret` (the account's `whsec_…` signing secret) lets the engine accept its webhooks.
 */
export const replicateDescriptor: ProviderDescriptor = {
  name: 'replicate',
  operations: ['image.generate'],
  defaultBaseUrl: 'https://api.replicate.com',
  channelOptions: {
    webhookSecret: { type: 'string', pattern: /^\S{1,512}$/, expected: "the account's webhook signing secret (whsec_…)", secret: true },
    pollIntervalMs: { type: 'integer', expected: 'a whole number of milliseconds' },
    deadlineMs: { type: 'integer', expected: 'a whole number of milliseconds' },
  },
  envPreset: {
    keyVar: 'REPLICATE_API_TOKEN',
    baseVar: 'REPLICATE_BASE_URL',
    rewriteVar: 'REPLICATE_MODEL_REWRITE',
    rewrite: [],
    modelMap: {
      'imagegen1-pro': 'black-forest-labs/flux-pro',
      'imagegen1-dev': 'black-forest-labs/flux-dev',
      'imagegen1-schnell': 'black-forest-labs/flux-schnell',
      'imagegen1-1.1-pro': 'black-forest-labs/flux-1.1-pro',
    },
    extraModels: ['*/*'],
  },
  factory: async () => {
    const [{ createReplicateImageProvider }, { createReplicateTaskProvider }] = await Promise.all([
      import('./replicate-image-provider.js'),
      import('./replicate-tasks.js'),
    ]);
    return { images: createReplicateImageProvider(), tasks: createReplicateTaskProvider() };
  },
};
