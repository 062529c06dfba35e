import { describe, expect, it } from 'vitest';
import { fromGeminiResponse } from './from-gemini-response.js';

describe('fromGeminiResponse', () => {
  it('reads text, thoughts and usage', () => {
    const response = fromGeminiResponse(
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Thinking...', thought: true, thoughtSignature: 'c2ln' }, { text: 'Hello' }, { text: ' there' }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 2, thoughtsTokenCount: 10, cachedContentTokenCount: 32, totalTokenCount: 52 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'abc123',
      },
      'gemini-2.5-flash',
    );
    expect(response).toMatchObject({
      id: 'abc123',
      model: 'gemini-2.5-flash',
      content: [
        { type: 'thinking', text: 'Thinking...', signature: 'c2ln' },
        { type: 'text', text: 'Hello there' },
      ],
      finishReason: 'stop',
      usage: { inputTokens: 40, outputTokens: 12, cacheReadTokens: 32, reasoningTokens: 10 },
    });
    expect(typeof response.created).toBe('number');
  });

  it('reads function calls, generating ids when absent, and finishes with tool_calls', () => {
    const response = fromGeminiResponse(
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { id: 'given', name: 'noop' } }],
            },
            finishReason: 'STOP',
          },
        ],
      },
      'm',
    );
    expect(response.finishReason).toBe('tool_calls');
    expect(response.content).toEqual([
      { type: 'tool_call', id: expect.stringMatching(/^call_[A-Za-z0-9]{24}$/), name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool_call', id: 'given', name: 'noop', arguments: '{}' },
    ]);
  });

  it('reads a blocked prompt (no candidates) as content_filter', () => {
    const response = fromGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 } }, 'm');
    expect(response.finishReason).toBe('content_filter');
    expect(response.content).toEqual([]);
    expect(response.usage).toEqual({ inputTokens: 8, outputTokens: 0 });
  });
});
