import { describe, expect, it } from 'vitest';
import { fromGeminiUsage, toGeminiUsage } from './gemini-usage.js';

describe('fromGeminiUsage', () => {
  it('keeps cached tokens inside input and adds thoughts to output', () => {
    expect(
      fromGeminiUsage({ promptTokenCount: 120, cachedContentTokenCount: 100, candidatesTokenCount: 30, thoughtsTokenCount: 50, totalTokenCount: 200 }),
    ).toEqual({ inputTokens: 120, outputTokens: 80, cacheReadTokens: 100, reasoningTokens: 50 });
  });

  it('counts tool-use prompt tokens as input', () => {
    expect(fromGeminiUsage({ promptTokenCount: 10, toolUsePromptTokenCount: 5, candidatesTokenCount: 2 })).toEqual({ inputTokens: 15, outputTokens: 2 });
  });

  it('reads an empty or partial object as zeros', () => {
    expect(fromGeminiUsage({})).toEqual({ inputTokens: 0, outputTokens: 0 });
  });
});

describe('toGeminiUsage', () => {
  it('reports candidates without thoughts and optional counts only when non-zero', () => {
    expect(toGeminiUsage({ inputTokens: 120, outputTokens: 80, cacheReadTokens: 100, reasoningTokens: 50 })).toEqual({
      promptTokenCount: 120,
      candidatesTokenCount: 30,
      totalTokenCount: 200,
      cachedContentTokenCount: 100,
      thoughtsTokenCount: 50,
    });
    expect(toGeminiUsage({ inputTokens: 7, outputTokens: 3, cacheReadTokens: 0 })).toEqual({
      promptTokenCount: 7,
      candidatesTokenCount: 3,
      totalTokenCount: 10,
    });
  });
});
