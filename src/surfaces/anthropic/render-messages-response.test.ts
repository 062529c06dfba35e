import { describe, expect, it } from 'vitest';
import type { ChatResponse, FinishReason } from '../../core/chat.js';
import { renderAnthropicMessagesResponse } from './render-messages-response.js';

function response(extra: Partial<ChatResponse> = {}): ChatResponse {
  return {
    id: 'msg_01ABC',
    model: 'textmodel-a-sonnet-4-20250514',
    created: 1_700_000_000,
    content: [{ type: 'text', text: 'Hello!' }],
    finishReason: 'stop',
    usage: { inputTokens: 10, outputTokens: 3 },
    ...extra,
  };
}

describe('renderAnthropicMessagesResponse', () => {
  it('renders a text answer in the exact Messages shape', () => {
    expect(renderAnthropicMessagesResponse(response())).toEqual({
      id: 'msg_01ABC',
      type: 'message',
      role: 'assistant',
      model: 'textmodel-a-sonnet-4-20250514',
      content: [{ type: 'text', text: 'Hello!' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('renders tool calls with parsed input objects, thinking blocks, and gives foreign tool ids the toolu_ prefix', () => {
    const rendered = renderAnthropicMessagesResponse(
      response({
        id: 'chatcmpl-77',
        content: [
          { type: 'thinking', text: 'Let me think.', signature: 'sig' },
          { type: 'thinking', text: '', redacted: 'opaque-bytes' },
          { type: 'text', text: 'Calling.' },
          { type: 'tool_call', id: 'call_abc123', name: 'get_weather', arguments: '{"city":"Paris","days":2}' },
          { type: 'tool_call', id: 'toolu_2', name: 'broken', arguments: '{"city":' },
        ],
        finishReason: 'tool_calls',
      }),
    );
    expect(rendered.id).toBe('msg_chatcmpl-77');
    expect(rendered.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque-bytes' },
      { type: 'text', text: 'Calling.' },
      { type: 'tool_use', id: 'toolu_call_abc123', name: 'get_weather', input: { city: 'Paris', days: 2 } },
      { type: 'tool_use', id: 'toolu_2', name: 'broken', input: {} },
    ]);
    expect(rendered.stop_reason).toBe('tool_use');
  });

  it('reports uncached input_tokens and both cache fields', () => {
    const rendered = renderAnthropicMessagesResponse(
      response({ usage: { inputTokens: 1500, outputTokens: 20, cacheReadTokens: 1200, cacheWriteTokens: 250 } }),
    );
    expect(rendered.usage).toEqual({ input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 250, cache_read_input_tokens: 1200 });
  });

  it('carries the stop sequence only with stop_reason stop_sequence', () => {
    expect(renderAnthropicMessagesResponse(response({ finishReason: 'stop_sequence', stopSequence: 'END' }))).toMatchObject({
      stop_reason: 'stop_sequence',
      stop_sequence: 'END',
    });
    expect(renderAnthropicMessagesResponse(response({ finishReason: 'stop', stopSequence: 'END' })).stop_sequence).toBeNull();
  });

  it.each<[FinishReason, string]>([
    ['stop', 'end_turn'],
    ['stop_sequence', 'stop_sequence'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['refusal', 'refusal'],
    ['content_filter', 'refusal'],
    ['pause', 'pause_turn'],
    ['error', 'end_turn'],
    ['other', 'end_turn'],
  ])('maps finish reason %s to stop_reason %s', (finishReason, stopReason) => {
    expect(renderAnthropicMessagesResponse(response({ finishReason })).stop_reason).toBe(stopReason);
  });
});
