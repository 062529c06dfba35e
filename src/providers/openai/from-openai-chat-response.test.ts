import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { fromOpenAIChatResponse } from './from-openai-chat-response.js';

describe('fromOpenAIChatResponse', () => {
  it('maps a text answer with cached and reasoning tokens', () => {
    expect(
      fromOpenAIChatResponse({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'gpt-4o-2024-08-06',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there', refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 2048,
          completion_tokens: 50,
          total_tokens: 2098,
          prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 20 },
        },
      }),
    ).toEqual({
      id: 'chatcmpl-1',
      model: 'gpt-4o-2024-08-06',
      created: 1_700_000_000,
      content: [{ type: 'text', text: 'Hi there' }],
      finishReason: 'stop',
      usage: { inputTokens: 2048, outputTokens: 50, cacheReadTokens: 1920, reasoningTokens: 20 },
    });
  });

  it('maps tool calls, including object arguments from lenient servers', () => {
    const response = fromOpenAIChatResponse({
      id: 'chatcmpl-2',
      created: 1_700_000_001,
      model: 'llama3.1',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
              { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: { tz: 'UTC' } as unknown as string } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 10, total_tokens: 40 },
    });
    expect(response.content).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'tool_call', id: 'call_b', name: 'get_time', arguments: '{"tz":"UTC"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ inputTokens: 30, outputTokens: 10 });
  });

  it('keeps reasoning_content of compatible servers as thinking and a refusal as text', () => {
    const thinking = fromOpenAIChatResponse({
      id: 'x',
      created: 1,
      model: 'deepseek-reasoner',
      choices: [
        { index: 0, message: { role: 'assistant', content: '42', refusal: null, reasoning_content: 'Let me think.' }, logprobs: null, finish_reason: 'length' },
      ],
    });
    expect(thinking.content).toEqual([
      { type: 'thinking', text: 'Let me think.' },
      { type: 'text', text: '42' },
    ]);
    expect(thinking.finishReason).toBe('length');
    expect(thinking.usage).toEqual({ inputTokens: 0, outputTokens: 0 });

    const refusal = fromOpenAIChatResponse({
      id: 'y',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: "I can't help with that." }, logprobs: null, finish_reason: 'stop' }],
    });
    expect(refusal.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    expect(refusal.finishReason).toBe('refusal');
  });

  it('treats an answer without choices as an upstream error', () => {
    expect(() => fromOpenAIChatResponse({ id: 'z', choices: [] })).toThrow(GatewayError);
  });
});
