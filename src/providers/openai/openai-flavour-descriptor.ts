/** The provider descriptor of an OpenAI-dialect flavour: its parts are those its operations need. */
import type { ProviderDescriptor } from '../types.js';
import type { OpenAIEndpoint } from './openai-endpoint.js';
import type { OpenAIFlavour } from './openai-flavour.js';

/**
 * `loadEndpoint`: a flavour whose upstream lays out its API otherwise (Azure) brings its endpoint
 * with the adapter, so that reading the descriptor loads none of it.
 */
export function openAIFlavourDescriptor(flavour: OpenAIFlavour, loadEndpoint?: () => Promise<OpenAIEndpoint>): ProviderDescriptor {
  const { name, operations, defaultBaseUrl, envPreset, servesResponses } = flavour;
  const serves = (operation: OpenAIFlavour['operations'][number]) => operations.includes(operation);
  return {
    name,
    operations,
    dialect: 'openai',
    ...(servesResponses ? { alsoRelays: ['responses'] as const } : {}),
    ...(defaultBaseUrl ? { defaultBaseUrl } : {}),
    ...(envPreset ? { envPreset } : {}),
    factory: async () => {
      const adapted = loadEndpoint ? { ...flavour, endpoint: await loadEndpoint() } : flavour;
      return {
        chat: serves('chat') ? (await import('./openai-chat-provider.js')).createOpenAIChat(adapted) : undefined,
        embed: serves('embed') ? (await import('./openai-embed.js')).createOpenAIEmbed(adapted) : undefined,
        images: serves('image.generate') || serves('image.edit') ? (await import('./images/index.js')).createOpenAIImages(adapted) : undefined,
      };
    },
  };
}
