import { describe, expect, it } from 'vitest';
import { toAnthropicTurns } from './to-anthropic-turns.js';

describe('toAnthropicTurns', () => {
  it('turns tool messages into user turns of tool_result blocks', () => {
    expect(
      toAnthropicTurns([
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call_1', content: '18°C' }] },
      ]),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '18°C' }] },
    ]);
  });

  it('merges consecutive same-role turns, putting tool results before the user text', () => {
    expect(
      toAnthropicTurns([
        { role: 'user', content: [{ type: 'text', text: 'a' }] },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'c1', name: 'f', arguments: '{}' },
            { type: 'tool_call', id: 'c2', name: 'g', arguments: '{}' },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'one' }] },
        { role: 'user', content: [{ type: 'text', text: 'and then?' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c2', content: 'two', isError: true }] },
        { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'y' }] },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'f', input: {} },
          { type: 'tool_use', id: 'c2', name: 'g', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
          { type: 'tool_result', tool_use_id: 'c2', content: 'two', is_error: true },
          { type: 'text', text: 'and then?' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'x' },
          { type: 'text', text: 'y' },
        ],
      },
    ]);
  });

  it('puts a user turn before a leading assistant turn', () => {
    const turns = toAnthropicTurns([
      { role: 'assistant', content: [{ type: 'text', text: 'How can I help?' }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[0]).toEqual({ role: 'user', content: [{ type: 'text', text: '(conversation continues)' }] });
  });

  it('drops empty text and unsigned thinking, then merges turns left side by side', () => {
    expect(
      toAnthropicTurns([
        { role: 'user', content: [{ type: 'text', text: 'q1' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'thinking', text: 'foreign reasoning' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'q2' }] },
      ]),
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'q1' },
          { type: 'text', text: 'q2' },
        ],
      },
    ]);
  });

  it('keeps signed and redacted thinking before the tool call', () => {
    const turns = toAnthropicTurns([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'plan', signature: 'sig' },
          { type: 'thinking', text: '', redacted: 'enc' },
          { type: 'tool_call', id: 't1', name: 'f', arguments: 'not json' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'ok' }] }] },
    ]);
    expect(turns[1].content).toEqual([
      { type: 'thinking', thinking: 'plan', signature: 'sig' },
      { type: 'redacted_thinking', data: 'enc' },
      { type: 'tool_use', id: 't1', name: 'f', input: {} },
    ]);
    expect(turns[2].content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'ok' }] }]);
  });

  it('trims trailing whitespace of a final prefilled assistant turn', () => {
    const turns = toAnthropicTurns([
      { role: 'user', content: [{ type: 'text', text: 'JSON please' }] },
      { role: 'assistant', content: [{ type: 'text', text: '{ \n' }] },
    ]);
    expect(turns[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '{' }] });
  });

  it('sanitises foreign tool ids consistently in tool_use and tool_result', () => {
    const turns = toAnthropicTurns([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'fc.1/a', name: 'f', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'fc.1/a', content: 'r' }] },
    ]);
    expect(turns[1].content).toEqual([{ type: 'tool_use', id: 'fc_1_a', name: 'f', input: {} }]);
    expect(turns[2].content).toEqual([{ type: 'tool_result', tool_use_id: 'fc_1_a', content: 'r' }]);
  });
});
