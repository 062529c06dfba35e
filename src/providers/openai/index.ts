/** Providers speaking the OpenAI Chat Completions dialect: `openai` and `openai-compatible` (one adapter, two flavours). */
import type { ProviderDescriptor } from '../types.js';
import { createOpenAIProvider, OPENAI_COMPATIBLE_OPERATIONS, OPENAI_OPERATIONS } from './openai-chat-provider.js';

export { createOpenAIProvider, type OpenAIProviderName } from './openai-chat-provider.js';

export const openaiDescriptor: ProviderDescriptor = {
  name: 'openai',
  operations: OPENAI_OPERATIONS,
  dialect: 'openai',
  defaultBaseUrl: 'https://api.openai.com/v1',
  envPreset: {
    keyVar: 'OPENAI_API_KEY',
    baseVar: 'OPENAI_BASE_URL',
    rewriteVar: 'OPENAI_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
    modelMap: {},
    extraModels: ['gpt-*', 'o1*', 'o3*', 'o4*', 'chatgpt-*', 'text-embedding-3-*', 'text-embedding-ada-*', 'dall-e-*'],
  },
  factory: () => createOpenAIProvider('openai'),
};

/** vLLM, Ollama, llama.cpp, LM Studio, …: no default base URL (the channel gives one, with `/v1`). */
export const openaiCompatibleDescriptor: ProviderDescriptor = {
  name: 'openai-compatible',
  operations: OPENAI_COMPATIBLE_OPERATIONS,
  dialect: 'openai',
  factory: () => createOpenAIProvider('openai-compatible'),
};
