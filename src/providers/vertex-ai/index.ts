/**
 * Google Vertex AI: Gemini models (`vertex-ai`, the Gemini dialect, with embeddings) and Claude
 * (`vertex-anthropic`, the Anthropic dialect) on a project's Vertex endpoint, authenticated with a
 * service-account key file held as the channel's key. Channel options `project` and `location`.
 */
import type { ProviderDescriptor } from '../types.js';
import { VERTEX_DEFAULT_BASE_URL } from './vertex-default-url.js';
import { VERTEX_CHANNEL_OPTIONS } from './vertex-options.js';

export const vertexAIDescriptor: ProviderDescriptor = {
  name: 'vertex-ai',
  operations: ['chat', 'embed'],
  dialect: 'gemini',
  defaultBaseUrl: VERTEX_DEFAULT_BASE_URL,
  channelOptions: VERTEX_CHANNEL_OPTIONS,
  factory: async () => {
    const [{ createGeminiChatProvider }, { VERTEX_GEMINI_ENDPOINT }, { createVertexEmbed }] = await Promise.all([
      import('../gemini/gemini-chat-provider.js'),
      import('./vertex-endpoints.js'),
      import('./vertex-embed.js'),
    ]);
    return { chat: createGeminiChatProvider(VERTEX_GEMINI_ENDPOINT), embed: createVertexEmbed() };
  },
};

export const vertexAnthropicDescriptor: ProviderDescriptor = {
  name: 'vertex-anthropic',
  operations: ['chat'],
  dialect: 'anthropic',
  defaultBaseUrl: VERTEX_DEFAULT_BASE_URL,
  channelOptions: VERTEX_CHANNEL_OPTIONS,
  factory: async () => {
    const [{ createAnthropicChatProvider }, { VERTEX_ANTHROPIC_ENDPOINT }] = await Promise.all([
      import('../anthropic/anthropic-chat-provider.js'),
      import('./vertex-endpoints.js'),
    ]);
    return { chat: createAnthropicChatProvider(VERTEX_ANTHROPIC_ENDPOINT) };
  },
};
