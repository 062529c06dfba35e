import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../../core/chat.js';
import { renderOpenAIChatResponse } from './render-chat-response.js';

const response = (overrides: Partial<ChatResponse>): ChatResponse => ({
  id: 'chatcmpl-abc',
  model: 'textmodel-b-4o',
  created: 1_700_000_123,
  content: [{ type: 'text', text: 'Hello!' }],
  finishReason: 'stop',
  usage: { inputTokens: 12, outputTokens: 3 },
  ...overrides,
});

describe('renderOpenAIChatResponse', () => {
  it('renders a text answer exactly as OpenAI does', () => {
    expect(renderOpenAIChatResponse(response({ usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 1024, reasoningTokens: 8 } }))).toEqual({
      id: 'chatcmpl-abc',
      object: 'chat.completion',
      created: 1_700_000_123,
      model: 'textmodel-b-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 30,
        total_tokens: 1230,
        prompt_tokens_details: { cached_tokens: 1024 },
        completion_tokens_details: { reasoning_tokens: 8 },
      },
    });
  });

  it('renders tool calls with null content, and thinking as reasoning_content and signed thinking_blocks', () => {
    const rendered = renderOpenAIChatResponse(
      response({
        content: [
          { type: 'thinking', text: 'The user wants weather.', signature: 'sig-1' },
          { type: 'thinking', text: '', redacted: 'enc' },
          { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { type: 'tool_call', id: 'call_2', name: 'get_time', arguments: '{}' },
        ],
        finishReason: 'tool_calls',
      }),
    );
    expect(rendered.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        reasoning_content: 'The user wants weather.',
        thinking_blocks: [
          { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'enc' },
        ],
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(rendered.usage).toEqual({
      prompt_tokens: 12,
      completion_tokens: 3,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('joins text blocks and keeps text next to tool calls', () => {
    const rendered = renderOpenAIChatResponse(
      response({
        content: [
          { type: 'text', text: 'Let me check. ' },
          { type: 'tool_call', id: 'call_1', name: 'f', arguments: '{}' },
          { type: 'text', text: 'One moment.' },
        ],
        finishReason: 'tool_calls',
      }),
    );
    expect(rendered.choices[0].message.content).toBe('Let me check. One moment.');
    expect(rendered.choices[0].message.tool_calls).toHaveLength(1);
  });

  it('renders an empty answer as an empty string', () => {
    expect(renderOpenAIChatResponse(response({ content: [] })).choices[0].message.content).toBe('');
  });

  it.each([
    ['stop', 'stop'],
    ['stop_sequence', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['refusal', 'content_filter'],
    ['pause', 'stop'],
    ['error', 'stop'],
    ['other', 'stop'],
  ] as const)('maps finish reason %s to %s', (reason, expected) => {
    expect(renderOpenAIChatResponse(response({ finishReason: reason })).choices[0].finish_reason).toBe(expected);
  });
});
