import { describe, expect, it } from 'vitest';
import { usageOfResponse } from './openai-responses-passthrough.js';

describe('usageOfResponse', () => {
  it('reads OpenAI’s Responses usage: input (cached included), cached, output, reasoning', () => {
    const usage = usageOfResponse({
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 100 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 12 },
        total_tokens: 150,
      },
    });
    expect(usage).toEqual({ inputTokens: 120, cacheReadTokens: 100, outputTokens: 30, reasoningTokens: 12 });
  });

  it('reads nothing from a response without usage (in progress, failed)', () => {
    expect(usageOfResponse({ usage: null })).toBeUndefined();
    expect(usageOfResponse('not an object')).toBeUndefined();
  });
});
