/** The two general flavours of the OpenAI adapter: OpenAI itself, and any server that speaks its dialect. */
import { OPENAI_STOP_RULES } from '../shared/check-stop-sequences.js';
import type { OpenAIFlavour } from './openai-flavour.js';

export const OPENAI_FLAVOUR: OpenAIFlavour = {
  name: 'openai',
  operations: ['chat', 'embed', 'image.generate', 'image.edit'],
  defaultBaseUrl: 'https://api.openai.com/v1',
  envPreset: {
    keyVar: 'OPENAI_API_KEY',
    baseVar: 'OPENAI_BASE_URL',
    rewriteVar: 'OPENAI_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
    modelMap: {},
    extraModels: ['gpt-*', 'o1*', 'o3*', 'o4*', 'chatgpt-*', 'text-embedding-3-*', 'text-embedding-ada-*', 'dall-e-*'],
  },
  maxTokensField: 'max_completion_tokens',
  stopRules: OPENAI_STOP_RULES,
  acceptsDocuments: true,
  // "A max of 128 functions are supported" (Chat Completions reference, `tools`).
  maxTools: 128,
  servesResponses: true,
};

/**
 * vLLM, Ollama, llama.cpp, LM Studio, …: no default base URL (the channel gives one, with `/v1`),
 * no common stop limit documented, and rarely images (a channel that serves them can use `openai`).
 */
export const OPENAI_COMPATIBLE_FLAVOUR: OpenAIFlavour = {
  name: 'openai-compatible',
  operations: ['chat', 'embed'],
  maxTokensField: 'max_tokens',
  stopRules: { upstream: 'OpenAI-compatible' },
  acceptsDocuments: false,
};
