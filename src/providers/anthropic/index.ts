import type { ProviderDescriptor } from '../types.js';

/** The Anthropic Messages API upstream. */
export const anthropicDescriptor: ProviderDescriptor = {
  name: 'anthropic',
  operations: ['chat'],
  dialect: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',
  envPreset: {
    keyVar: 'ANTHROPIC_API_KEY',
    baseVar: 'ANTHROPIC_BASE_URL',
    rewriteVar: 'ANTHROPIC_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-a-', to: 'claude-' }],
    modelMap: {},
    extraModels: ['claude-*'],
  },
  factory: async () => ({ chat: (await import('./anthropic-chat-provider.js')).createAnthropicChatProvider() }),
};
