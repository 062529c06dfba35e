import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseOpenAIChatRequest } from './parse-chat-request.js';
import { parseThinkingBlocks } from './parse-thinking-blocks.js';

describe('parseThinkingBlocks', () => {
  it('reads signed, unsigned and redacted blocks in order, ignoring unknown types', () => {
    expect(
      parseThinkingBlocks(
        [
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'thinking', thinking: 'unsigned', signature: null },
          { type: 'redacted_thinking', data: 'enc' },
          { type: 'reasoning.summary', summary: 'x' },
        ],
        'messages[1].thinking_blocks',
      ),
    ).toEqual([
      { type: 'thinking', text: 'plan', signature: 'sig' },
      { type: 'thinking', text: 'unsigned' },
      { type: 'thinking', text: '', redacted: 'enc' },
    ]);
    expect(parseThinkingBlocks(null, 'p')).toEqual([]);
  });

  it('names the bad field of a malformed block', () => {
    const error = (() => {
      try {
        parseThinkingBlocks([{ type: 'thinking', thinking: 7 }], 'messages[1].thinking_blocks');
      } catch (e) {
        return e;
      }
    })() as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.message).toMatch(/^messages\[1\]\.thinking_blocks\[0\]\.thinking: /);
    expect(() => parseThinkingBlocks('x', 'p')).toThrow(GatewayError);
  });

  it('puts an echoed assistant message thinking before its tool calls', () => {
    const request = parseOpenAIChatRequest({
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'plan',
          thinking_blocks: [{ type: 'thinking', thinking: 'plan', signature: 'sig' }],
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    expect(request.messages[1].content).toEqual([
      { type: 'thinking', text: 'plan', signature: 'sig' },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{}' },
    ]);
  });
});
