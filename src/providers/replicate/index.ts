import type { Provider } from '../types.js';
import { createReplicateImageProvider } from './replicate-image-provider.js';

/**
 * Replicate at `https://api.replicate.com` by default: Bearer token, upstream model
 * `owner/name` (official models) or `owner/name:version`; predictions created with
 * `Prefer: wait` and polled within the channel's `timeoutMs` (channel option `pollIntervalMs`,
 * default 500).
 */
export function createReplicateProvider(): Provider {
  return {
    name: 'replicate',
    operations: new Set(['image.generate']),
    images: createReplicateImageProvider(),
  };
}
