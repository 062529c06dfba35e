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
];
