/**
 * Providers speaking the OpenAI Chat Completions dialect: one adapter, one flavour each
 * (`openai-flavour.ts`): `openai`, `openai-compatible` and the named presets of hosted vendors.
 */
import { LOCAL_SERVER_PRESETS } from './local-server-presets.js';
import { NAMED_PRESETS } from './named-presets.js';
import { openAIFlavourDescriptor } from './openai-flavour-descriptor.js';
import { OPENAI_COMPATIBLE_FLAVOUR, OPENAI_FLAVOUR } from './openai-flavours.js';

export const openaiDescriptor = openAIFlavourDescriptor(OPENAI_FLAVOUR);
export const openaiCompatibleDescriptor = openAIFlavourDescriptor(OPENAI_COMPATIBLE_FLAVOUR);
export const namedPresetDescriptors = [...NAMED_PRESETS, ...LOCAL_SERVER_PRESETS].map((flavour) => openAIFlavourDescriptor(flavour));
