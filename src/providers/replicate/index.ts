import type { Provider, ProviderDescriptor } from '../types.js';
import { createReplicateImageProvider } from './replicate-image-provider.js';

/**
 * Replicate: Bearer token, upstream model `owner/name` (official models) or
 * `owner/name:version`; predictions created with `Prefer: wait` and polled within the
 * channel's `timeoutMs` (channel option `pollIntervalMs`, default 500).
 */
export const replicateDescriptor: ProviderDescriptor = {
  name: 'replicate',
  operations: ['image.generate'],
  defaultBaseUrl: 'https://api.replicate.com',
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
  factory: () => createReplicateProvider(),
};

export function createReplicateProvider(): Provider {
  return {
    name: 'replicate',
    operations: new Set(replicateDescriptor.operations),
    images: createReplicateImageProvider(),
  };
}
