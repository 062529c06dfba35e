import type { ProviderDescriptor } from '../types.js';

/** The Gemini API upstream (channel option `apiVersion`, default `v1beta`). */
export const geminiDescriptor: ProviderDescriptor = {
  name: 'gemini',
  operations: ['chat', 'embed'],
  dialect: 'gemini',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  envPreset: {
    keyVar: 'GEMINI_API_KEY',
    baseVar: 'GEMINI_BASE_URL',
    rewriteVar: 'GEMINI_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-c-', to: 'gemini-' }],
    modelMap: {},
    extraModels: ['gemini-*', 'text-embedding-004', 'embedding-*'],
  },
  factory: async () => {
    const [{ createGeminiChatProvider }, { createGeminiEmbed }] = await Promise.all([import('./gemini-chat-provider.js'), import('./gemini-embed.js')]);
    return { chat: createGeminiChatProvider(), embed: createGeminiEmbed() };
  },
};
