/**
 * Hosted OpenAI-compatible vendors known by name: `provider: deepseek` needs no base URL, and
 * the vendor's usual key variable alone adds a channel. Adding one is one entry here, data
 * only (CONTRIBUTING.md, "Adding an OpenAI-compatible named preset"): each field as the
 * vendor's API reference documents it, and a quirk only where the reference names one.
 */
import type { OpenAIFlavour } from './openai-flavour.js';

export const NAMED_PRESETS: readonly OpenAIFlavour[] = [
  {
    // api-docs.deepseek.com: POST /chat/completions on https://api.deepseek.com (no /v1 needed),
    // `max_tokens`, up to 16 stop sequences, `stream_options.include_usage`; no embeddings, no file input.
    name: 'deepseek',
    operations: ['chat'],
    defaultBaseUrl: 'https://api.deepseek.com',
    envPreset: {
      keyVar: 'DEEPSEEK_API_KEY',
      baseVar: 'DEEPSEEK_BASE_URL',
      rewriteVar: 'DEEPSEEK_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['deepseek-*'],
    },
    maxTokensField: 'max_tokens',
    stopRules: { upstream: 'DeepSeek', max: 16 },
    acceptsDocuments: false,
  },
  {
    // console.groq.com/docs/api-reference: POST /openai/v1/chat/completions, `max_completion_tokens`
    // (`max_tokens` deprecated), up to 4 stop sequences, n = 1 only; no embeddings, no file input.
    name: 'groq',
    operations: ['chat'],
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    envPreset: {
      keyVar: 'GROQ_API_KEY',
      baseVar: 'GROQ_BASE_URL',
      rewriteVar: 'GROQ_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['llama-*', 'meta-llama/*', 'openai/gpt-oss-*', 'qwen/*', 'moonshotai/*', 'groq/*'],
    },
    maxTokensField: 'max_completion_tokens',
    stopRules: { upstream: 'Groq', max: 4 },
    acceptsDocuments: false,
  },
  {
    // docs.mistral.ai/api (Chat Completion): POST /v1/chat/completions, `max_tokens`, `stop` without a
    // documented count; the request schema forbids members it does not list (HTTP 422), and lists
    // none of OpenAI's `logit_bias`, `logprobs`, `top_logprobs`, `store`, `metadata`, `service_tier`.
    name: 'mistral',
    operations: ['chat', 'embed'],
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    envPreset: {
      keyVar: 'MISTRAL_API_KEY',
      baseVar: 'MISTRAL_BASE_URL',
      rewriteVar: 'MISTRAL_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['mistral-*', 'magistral-*', 'codestral-*', 'devstral-*', 'ministral-*', 'pixtral-*', 'open-mistral-*'],
    },
    maxTokensField: 'max_tokens',
    stopRules: { upstream: 'Mistral' },
    acceptsDocuments: false,
    unsupportedParams: ['logit_bias', 'logprobs', 'top_logprobs', 'store', 'metadata', 'service_tier'],
  },
  {
    // docs.x.ai/docs/api-reference (Chat completions): POST /v1/chat/completions, `max_completion_tokens`
    // (`max_tokens` deprecated), up to 4 stop sequences; no embeddings, no file input.
    name: 'xai',
    operations: ['chat'],
    defaultBaseUrl: 'https://api.x.ai/v1',
    envPreset: {
      keyVar: 'XAI_API_KEY',
      baseVar: 'XAI_BASE_URL',
      rewriteVar: 'XAI_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['grok-*'],
    },
    maxTokensField: 'max_completion_tokens',
    stopRules: { upstream: 'xAI', max: 4 },
    acceptsDocuments: false,
  },
  {
    // openrouter.ai/docs/api-reference: POST /api/v1/chat/completions, `max_tokens`, models named
    // `<vendor>/<model>`, reasoning streamed as `reasoning` (read like DeepSeek's `reasoning_content`).
    name: 'openrouter',
    operations: ['chat'],
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    envPreset: {
      keyVar: 'OPENROUTER_API_KEY',
      baseVar: 'OPENROUTER_BASE_URL',
      rewriteVar: 'OPENROUTER_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['openai/*', 'anthropic/*', 'google/*', 'meta-llama/*', 'mistralai/*', 'deepseek/*', 'x-ai/*', 'qwen/*', 'moonshotai/*', 'openrouter/*'],
    },
    maxTokensField: 'max_tokens',
    stopRules: { upstream: 'OpenRouter' },
    acceptsDocuments: false,
  },
  {
    // docs.together.ai/reference/chat-completions-1: POST /v1/chat/completions, `max_tokens`; /v1/embeddings.
    name: 'together',
    operations: ['chat', 'embed'],
    defaultBaseUrl: 'https://api.together.xyz/v1',
    envPreset: {
      keyVar: 'TOGETHER_API_KEY',
      baseVar: 'TOGETHER_BASE_URL',
      rewriteVar: 'TOGETHER_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['meta-llama/*', 'Qwen/*', 'deepseek-ai/*', 'mistralai/*', 'google/*', 'moonshotai/*', 'openai/gpt-oss-*', 'togethercomputer/*', 'BAAI/*'],
    },
    maxTokensField: 'max_tokens',
    stopRules: { upstream: 'Together' },
    acceptsDocuments: false,
  },
  {
    // docs.fireworks.ai/api-reference/post-chatcompletions: POST /inference/v1/chat/completions,
    // `max_tokens`, models named `accounts/<account>/models/<model>`; /inference/v1/embeddings.
    name: 'fireworks',
    operations: ['chat', 'embed'],
    defaultBaseUrl: 'https://api.fireworks.ai/inference/v1',
    envPreset: {
      keyVar: 'FIREWORKS_API_KEY',
      baseVar: 'FIREWORKS_BASE_URL',
      rewriteVar: 'FIREWORKS_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['accounts/*'],
    },
    maxTokensField: 'max_tokens',
    stopRules: { upstream: 'Fireworks' },
    acceptsDocuments: false,
  },
  {
    // inference-docs.cerebras.ai/resources/openai: POST /v1/chat/completions, `max_completion_tokens`;
    // documented as unsupported: `frequency_penalty`, `logit_bias`, `presence_penalty`,
    // `parallel_tool_calls`, `service_tier`. No embeddings, no file input.
    name: 'cerebras',
    operations: ['chat'],
    defaultBaseUrl: 'https://api.cerebras.ai/v1',
    envPreset: {
      keyVar: 'CEREBRAS_API_KEY',
      baseVar: 'CEREBRAS_BASE_URL',
      rewriteVar: 'CEREBRAS_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['llama*', 'qwen-*', 'gpt-oss-*', 'zai-glm-*'],
    },
    maxTokensField: 'max_completion_tokens',
    stopRules: { upstream: 'Cerebras' },
    acceptsDocuments: false,
    unsupportedParams: ['frequency_penalty', 'logit_bias', 'presence_penalty', 'parallel_tool_calls', 'service_tier'],
  },
  {
    // docs.perplexity.ai/api-reference/chat-completions-post: POST /chat/completions on
    // https://api.perplexity.ai (no /v1), `max_tokens`, the `sonar` models; no embeddings.
    name: 'perplexity',
    operations: ['chat'],
    defaultBaseUrl: 'https://api.perplexity.ai',
    envPreset: {
      keyVar: 'PERPLEXITY_API_KEY',
      baseVar: 'PERPLEXITY_BASE_URL',
      rewriteVar: 'PERPLEXITY_MODEL_REWRITE',
      rewrite: [],
      modelMap: {},
      extraModels: ['sonar*', 'r1-1776'],
    },
    maxTokensField: 'max_tokens',
    stopRules: { upstream: 'Perplexity' },
    acceptsDocuments: false,
  },
];
