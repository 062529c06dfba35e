/** Both directions between canonical Usage and OpenAI's `usage` object. */
import type { Usage } from '../usage.js';
import type { OpenAIUsage } from './openai-chat-types.js';

/** OpenAI's `prompt_tokens` already include cached tokens, like canonical `inputTokens`. */
export function toOpenAIUsage(usage: Usage): Required<Pick<OpenAIUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'>> & {
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
} {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/** Reads an upstream usage object; tolerates the missing or null details some servers send. */
export function fromOpenAIUsage(usage: Partial<OpenAIUsage>): Usage {
  const result: Usage = {
    inputTokens: numberOr0(usage.prompt_tokens),
    outputTokens: numberOr0(usage.completion_tokens),
  };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number' && cached > 0) result.cacheReadTokens = cached;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number' && reasoning > 0) result.reasoningTokens = reasoning;
  return result;
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
