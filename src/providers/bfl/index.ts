import type { Provider } from '../types.js';
import { createBflImageProvider } from './bfl-image-provider.js';

/**
 * Black Forest Labs (Flux) at `https://api.bfl.ai` by default: `x-key` header, asynchronous
 * tasks polled within the channel's `timeoutMs`; channel options `pollIntervalMs` (default
 * 500) and `safetyTolerance` (0–6).
 */
export function createBflProvider(): Provider {
  return {
    name: 'bfl',
    operations: new Set(['image.generate']),
    images: createBflImageProvider(),
  };
}
