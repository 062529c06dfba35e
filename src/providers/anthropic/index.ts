import type { Provider } from '../types.js';
import { createAnthropicChatProvider } from './anthropic-chat-provider.js';

/** The Anthropic Messages API upstream (`https://api.anthropic.com` by default). */
export function createAnthropicProvider(): Provider {
  return {
    name: 'anthropic',
    dialect: 'anthropic',
    operations: new Set(['chat']),
    chat: createAnthropicChatProvider(),
  };
}
