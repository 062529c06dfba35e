import { describe, expect, it } from 'vitest';
import { toResponsesUsage } from './responses-usage.js';

describe('toResponsesUsage', () => {
  it('carries cached, cache-write and reasoning tokens in the details, and totals input and output', () => {
    expect(toResponsesUsage({ inputTokens: 1200, outputTokens: 300, cacheReadTokens: 1024, cacheWriteTokens: 50, reasoningTokens: 200 })).toEqual({
      input_tokens: 1200,
      input_tokens_details: { cached_tokens: 1024, cache_write_tokens: 50 },
      output_tokens: 300,
      output_tokens_details: { reasoning_tokens: 200 },
      total_tokens: 1500,
    });
  });

  it('gives zero details when the upstream reported none', () => {
    expect(toResponsesUsage({ inputTokens: 7, outputTokens: 2 })).toEqual({
      input_tokens: 7,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 9,
    });
  });
});
