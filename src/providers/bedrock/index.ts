/**
 * AWS Bedrock: any Bedrock chat model through the Converse API (`bedrock`, translated; with Titan and Cohere embeddings), and Claude
 * through Anthropic's Messages API on Bedrock (`bedrock-anthropic`, the Anthropic dialect: its
 * native features pass through). Authenticated with a Bedrock API key (bearer) or SigV4-signed
 * with AWS keys, from the channel or the standard AWS environment variables (bedrock-auth.ts);
 * channel option `region`.
 */
import type { ProviderDescriptor } from '../types.js';
import { BEDROCK_DEFAULT_BASE_URL } from './bedrock-default-url.js';
import { BEDROCK_CHANNEL_OPTIONS } from './bedrock-options.js';

export const bedrockDescriptor: ProviderDescriptor = {
  name: 'bedrock',
  operations: ['chat', 'embed'],
  defaultBaseUrl: BEDROCK_DEFAULT_BASE_URL,
  channelOptions: BEDROCK_CHANNEL_OPTIONS,
  factory: async () => {
    const [{ createConverseChatProvider }, { createBedrockEmbed }] = await Promise.all([import('./converse-chat-provider.js'), import('./bedrock-embed.js')]);
    return { chat: createConverseChatProvider(), embed: createBedrockEmbed() };
  },
};

export const bedrockAnthropicDescriptor: ProviderDescriptor = {
  name: 'bedrock-anthropic',
  operations: ['chat'],
  dialect: 'anthropic',
  defaultBaseUrl: BEDROCK_DEFAULT_BASE_URL,
  channelOptions: BEDROCK_CHANNEL_OPTIONS,
  factory: async () => {
    const [{ createAnthropicChatProvider }, { BEDROCK_ANTHROPIC_ENDPOINT }] = await Promise.all([
      import('../anthropic/anthropic-chat-provider.js'),
      import('./bedrock-anthropic-endpoint.js'),
    ]);
    return { chat: createAnthropicChatProvider(BEDROCK_ANTHROPIC_ENDPOINT) };
  },
};
