import { describe, expect, it } from 'vitest';
import { fromOpenAIUsage, toOpenAIUsage } from './openai-usage.js';

describe('OpenAI usage', () => {
  it('renders canonical usage with cached and reasoning details', () => {
    expect(toOpenAIUsage({ inputTokens: 3000, outputTokens: 400, cacheReadTokens: 2048, cacheWriteTokens: 100, reasoningTokens: 256 })).toEqual({
      prompt_tokens: 3000,
      completion_tokens: 400,
      total_tokens: 3400,
      prompt_tokens_details: { cached_tokens: 2048 },
      completion_tokens_details: { reasoning_tokens: 256 },
    });
  });

  it('reads upstream usage, leaving out zero details', () => {
    expect(
      fromOpenAIUsage({
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: null,
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(
      fromOpenAIUsage({
        prompt_tokens: 1500,
        completion_tokens: 80,
        prompt_tokens_details: { cached_tokens: 1408 },
        completion_tokens_details: { reasoning_tokens: 64 },
      }),
    ).toEqual({
      inputTokens: 1500,
      outputTokens: 80,
      cacheReadTokens: 1408,
      reasoningTokens: 64,
    });
  });
});
