/** The provider descriptor of an OpenAI-dialect flavour: its parts are those its operations need. */
import type { ProviderDescriptor } from '../types.js';
import type { OpenAIFlavour } from './openai-flavour.js';

export function openAIFlavourDescriptor(flavour: OpenAIFlavour): ProviderDescriptor {
  const { name, operations, defaultBaseUrl, envPreset, servesResponses } = flavour;
  const serves = (operation: OpenAIFlavour['operations'][number]) => operations.includes(operation);
  return {
    name,
    operations,
    dialect: 'openai',
    ...(servesResponses ? { alsoRelays: ['responses'] as const } : {}),
    ...(defaultBaseUrl ? { defaultBaseUrl } : {}),
    ...(envPreset ? { envPreset } : {}),
    factory: async () => ({
      chat: serves('chat') ? (await import('./openai-chat-provider.js')).createOpenAIChat(flavour) : undefined,
      embed: serves('embed') ? (await import('./openai-embed.js')).createOpenAIEmbed(flavour) : undefined,
      images: serves('image.generate') || serves('image.edit') ? (await import('./images/index.js')).createOpenAIImages(flavour) : undefined,
    }),
  };
}
