import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { AnthropicMessagesResponse } from '../../core/wire/anthropic-types.js';
import { fromAnthropicResponse } from './from-anthropic-response.js';

describe('fromAnthropicResponse', () => {
  it('maps content, stop reason and cached usage', () => {
    const wire: AnthropicMessagesResponse = {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'sig' },
        { type: 'redacted_thinking', data: 'enc' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 40, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 },
    };
    const response = fromAnthropicResponse(wire);
    expect(response).toEqual({
      id: 'msg_01',
      model: 'claude-sonnet-4-20250514',
      created: response.created,
      content: [
        { type: 'thinking', text: 'plan', signature: 'sig' },
        { type: 'thinking', text: '', redacted: 'enc' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'toolu_01', name: 'get_weather', arguments: '{"city":"Paris"}' },
      ],
      finishReason: 'tool_calls',
      stopSequence: null,
      usage: { inputTokens: 2312, outputTokens: 40, cacheWriteTokens: 300, cacheReadTokens: 2000 },
    });
    expect(Math.abs(response.created - Date.now() / 1000)).toBeLessThan(5);
  });

  it('keeps the stop sequence and skips server-tool blocks', () => {
    const response = fromAnthropicResponse({
      id: 'msg_02',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} } as never, { type: 'text', text: 'a' }],
      stop_reason: 'stop_sequence',
      stop_sequence: '###',
      usage: { input_tokens: 1, output_tokens: 1 },
    });
    expect(response.content).toEqual([{ type: 'text', text: 'a' }]);
    expect(response.finishReason).toBe('stop_sequence');
    expect(response.stopSequence).toBe('###');
  });

  it('rejects a body without content as an upstream error', () => {
    expect(() => fromAnthropicResponse({ id: 'x' } as never)).toThrow(GatewayError);
  });
});
