/**
 * Servers run beside the gateway, known by name: vLLM, Ollama, llama.cpp's server and LM Studio.
 * Each serves `/v1/chat/completions` and `/v1/embeddings`, reads `max_tokens` and documents no
 * stop-sequence limit; keyless, on the port it listens on by default (a channel's `baseUrl` moves
 * it). No environment preset: a channel of each is one `provider:` line in gengate.yaml.
 */
import type { OpenAIFlavour } from './openai-flavour.js';

function localServer(name: string, shown: string, defaultBaseUrl: string): OpenAIFlavour {
  return { name, operations: ['chat', 'embed'], defaultBaseUrl, maxTokensField: 'max_tokens', stopRules: { upstream: shown }, acceptsDocuments: false };
}

export const LOCAL_SERVER_PRESETS: readonly OpenAIFlavour[] = [
  // docs.vllm.ai: `vllm serve` listens on port 8000.
  localServer('vllm', 'vLLM', 'http://127.0.0.1:8000/v1'),
  // docs.ollama.com/api/openai-compatibility: port 11434.
  localServer('ollama', 'Ollama', 'http://127.0.0.1:11434/v1'),
  // llama.cpp tools/server README: `llama-server` listens on port 8080.
  localServer('llamacpp', 'llama.cpp', 'http://127.0.0.1:8080/v1'),
  // lmstudio.ai/docs/app/api/endpoints/openai: port 1234.
  localServer('lmstudio', 'LM Studio', 'http://127.0.0.1:1234/v1'),
];
