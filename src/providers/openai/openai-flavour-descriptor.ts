/** The provider descriptor of an OpenAI-dialect flavour: its parts are those its operations need. */
import type { ProviderDescriptor } from '../types.js';
import { createOpenAIImages } from './images/index.js';
import { createOpenAIChat } from './openai-chat-provider.js';
import { createOpenAIEmbed } from './openai-embed.js';
import type { OpenAIFlavour } from './openai-flavour.js';

export function openAIFlavourDescriptor(flavour: OpenAIFlavour): ProviderDescriptor {
  const { name, operations, defaultBaseUrl, envPreset } = flavour;
  const serves = (operation: OpenAIFlavour['operations'][number]) => operations.includes(operation);
  return {
    name,
    operations,
    dialect: 'openai',
    ...(defaultBaseUrl ? { defaultBaseUrl } : {}),
    ...(envPreset ? { envPreset } : {}),
    factory: () => ({
      chat: serves('chat') ? createOpenAIChat(flavour) : undefined,
      embed: serves('embed') ? createOpenAIEmbed() : undefined,
      images: serves('image.generate') || serves('image.edit') ? createOpenAIImages() : undefined,
    }),
  };
}
