import type { ProviderDescriptor } from '../types.js';

/** The Ideogram API upstream: image operations only. */
export const ideogramDescriptor: ProviderDescriptor = {
  name: 'ideogram',
  operations: ['image.remix', 'image.edit', 'image.blend', 'image.generate'],
  defaultBaseUrl: 'https://api.ideogram.ai',
  envPreset: {
    keyVar: 'IDEOGRAM_API_KEY',
    baseVar: 'IDEOGRAM_BASE_URL',
    rewriteVar: 'IDEOGRAM_MODEL_REWRITE',
    rewrite: [],
    modelMap: { 'imagegen2-v3': 'V_3' },
    extraModels: ['V_3'],
  },
  factory: async () => ({ images: (await import('./ideogram-images.js')).createIdeogramImages() }),
};
