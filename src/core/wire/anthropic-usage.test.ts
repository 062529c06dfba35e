import { describe, expect, it } from 'vitest';
import { fromAnthropicInputUsage, fromAnthropicUsage, toAnthropicInputUsage, toAnthropicUsage } from './anthropic-usage.js';

describe('Anthropic usage ⇄ canonical usage', () => {
  it('sums uncached, cache-write and cache-read input into canonical inputTokens', () => {
    expect(fromAnthropicUsage({ input_tokens: 12, output_tokens: 30, cache_creation_input_tokens: 1000, cache_read_input_tokens: 200 })).toEqual({
      inputTokens: 1212,
      outputTokens: 30,
      cacheWriteTokens: 1000,
      cacheReadTokens: 200,
    });
  });

  it('omits cache parts that the upstream did not report (null or absent)', () => {
    expect(fromAnthropicUsage({ input_tokens: 7, output_tokens: 1, cache_creation_input_tokens: null })).toEqual({ inputTokens: 7, outputTokens: 1 });
    expect(fromAnthropicInputUsage({ input_tokens: 5, cache_read_input_tokens: 0 })).toEqual({ inputTokens: 5, cacheReadTokens: 0 });
  });

  it('renders canonical usage with input_tokens excluding cached tokens', () => {
    expect(toAnthropicUsage({ inputTokens: 1212, outputTokens: 30, cacheWriteTokens: 1000, cacheReadTokens: 200 })).toEqual({
      input_tokens: 12,
      output_tokens: 30,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 200,
    });
  });

  it('renders zero cache fields when the canonical usage has none', () => {
    expect(toAnthropicUsage({ inputTokens: 9, outputTokens: 4 })).toEqual({
      input_tokens: 9,
      output_tokens: 4,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    expect(toAnthropicInputUsage({})).toEqual({ input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it('never renders negative uncached input when cache parts exceed the total', () => {
    expect(toAnthropicInputUsage({ inputTokens: 10, cacheReadTokens: 20 }).input_tokens).toBe(0);
  });
});
