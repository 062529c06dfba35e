import { describe, expect, it } from 'vitest';
import type { ChatResponse, FinishReason } from '../../core/chat.js';
import { renderGeminiGenerateResponse } from './render-generate-response.js';

const base: ChatResponse = {
  id: 'resp-1',
  model: 'textmodel-c-2.5-flash',
  created: 1_700_000_000,
  content: [{ type: 'text', text: 'Hello there.' }],
  finishReason: 'stop',
  usage: { inputTokens: 12, outputTokens: 4 },
};

describe('renderGeminiGenerateResponse', () => {
  it('renders a text answer in the exact Gemini shape', () => {
    expect(renderGeminiGenerateResponse(base)).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello there.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 4, totalTokenCount: 16 },
      modelVersion: 'textmodel-c-2.5-flash',
      responseId: 'resp-1',
    });
  });

  it('renders thoughts (with their signatures), function calls with object args, and cached and thought counts', () => {
    const rendered = renderGeminiGenerateResponse({
      ...base,
      content: [
        { type: 'thinking', text: 'The user wants weather.', signature: 'anthropic-sig' },
        { type: 'thinking', text: '', redacted: 'opaque' },
        { type: 'tool_call', id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris","days":2}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 200, outputTokens: 60, cacheReadTokens: 150, reasoningTokens: 40 },
    });
    expect(rendered).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'The user wants weather.', thought: true, thoughtSignature: 'anthropic-sig' },
              { functionCall: { id: 'call_9', name: 'get_weather', args: { city: 'Paris', days: 2 } } },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 200, candidatesTokenCount: 20, totalTokenCount: 260, cachedContentTokenCount: 150, thoughtsTokenCount: 40 },
      modelVersion: 'textmodel-c-2.5-flash',
      responseId: 'resp-1',
    });
  });

  it.each<[FinishReason, string]>([
    ['stop', 'STOP'],
    ['stop_sequence', 'STOP'],
    ['tool_calls', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
    ['refusal', 'SAFETY'],
    ['pause', 'OTHER'],
    ['error', 'OTHER'],
    ['other', 'OTHER'],
  ])('maps finish reason %s to %s', (reason, expected) => {
    expect(renderGeminiGenerateResponse({ ...base, finishReason: reason }).candidates?.[0].finishReason).toBe(expected);
  });

  it('renders unparsable tool arguments as an empty args object', () => {
    const rendered = renderGeminiGenerateResponse({ ...base, content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{"cut' }] });
    expect(rendered.candidates?.[0].content?.parts).toEqual([{ functionCall: { id: 'c', name: 'f', args: {} } }]);
  });
});
