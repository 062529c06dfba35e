import type { ProviderDescriptor } from '../types.js';

/**
 * Black Forest Labs (Flux): `x-key` header, asynchronous tasks polled within the channel's
 * `timeoutMs`; channel options `pollIntervalMs` (default 500) and `safetyTolerance` (0–6).
 */
export const bflDescriptor: ProviderDescriptor = {
  name: 'bfl',
  operations: ['image.generate'],
  defaultBaseUrl: 'https://api.bfl.ai',
  envPreset: {
    keyVar: 'BFL_API_KEY',
    baseVar: 'BFL_BASE_URL',
    rewriteVar: 'BFL_MODEL_REWRITE',
    rewrite: [],
    modelMap: { 'imagegen1-pro': 'flux-pro', 'imagegen1-dev': 'flux-dev', 'imagegen1-1.1-pro': 'flux-pro-1.1' },
    extraModels: ['flux-*'],
  },
  factory: async () => ({ images: (await import('./bfl-image-provider.js')).createBflImageProvider() }),
};
