import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';

function sse(name: string, data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

async function decode(text: string, chunkSize = 7): Promise<ChatEvent[]> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
  }
  const events: ChatEvent[] = [];
  for await (const event of decodeAnthropicStream(chunks())) events.push(event);
  return events;
}

const START = sse('message_start', {
  message: {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-20250514',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, cache_creation_input_tokens: 1000, cache_read_input_tokens: 0, output_tokens: 1 },
  },
});

describe('decodeAnthropicStream', () => {
  it('decodes text, thinking and two tool calls into canonical events', async () => {
    const text =
      START +
      sse('ping', {}) +
      sse('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }) +
      sse('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Plan.' } }) +
      sse('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } }) +
      sse('content_block_stop', { index: 0 }) +
      sse('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }) +
      sse('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Hel' } }) +
      sse('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'lo' } }) +
      sse('content_block_stop', { index: 1 }) +
      sse('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_a', name: 'f', input: {} } }) +
      sse('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '' } }) +
      sse('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"x":' } }) +
      sse('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '1}' } }) +
      sse('content_block_stop', { index: 2 }) +
      sse('ping', {}) +
      sse('content_block_start', { index: 3, content_block: { type: 'tool_use', id: 'toolu_b', name: 'g', input: {} } }) +
      sse('content_block_delta', { index: 3, delta: { type: 'input_json_delta', partial_json: '{}' } }) +
      sse('content_block_stop', { index: 3 }) +
      sse('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 77 } }) +
      sse('message_stop', {});
    const events = await decode(text);
    const start = events[0] as Extract<ChatEvent, { type: 'start' }>;
    expect(events).toEqual([
      {
        type: 'start',
        id: 'msg_01',
        model: 'claude-sonnet-4-20250514',
        created: start.created,
        usage: { inputTokens: 1025, outputTokens: 1, cacheWriteTokens: 1000, cacheReadTokens: 0 },
      },
      { type: 'thinking_delta', text: 'Plan.' },
      { type: 'thinking_delta', text: '', signature: 'sig' },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo' },
      { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool_call_start', index: 1, id: 'toolu_b', name: 'g' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      {
        type: 'finish',
        finishReason: 'tool_calls',
        stopSequence: null,
        usage: { inputTokens: 1025, outputTokens: 77, cacheWriteTokens: 1000, cacheReadTokens: 0 },
      },
    ]);
  });

  it('takes input totals from message_delta when present there', async () => {
    const events = await decode(
      START +
        sse('message_delta', {
          delta: { stop_reason: 'max_tokens', stop_sequence: null },
          usage: { output_tokens: 9, input_tokens: 30, cache_read_input_tokens: 500 },
        }) +
        sse('message_stop', {}),
    );
    expect(events[events.length - 1]).toEqual({
      type: 'finish',
      finishReason: 'length',
      stopSequence: null,
      usage: { inputTokens: 1530, outputTokens: 9, cacheWriteTokens: 1000, cacheReadTokens: 500 },
    });
  });

  it('turns event: error into an error event', async () => {
    const events = await decode(
      START +
        sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }) +
        `event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`,
    );
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'error']);
    const error = (events[2] as Extract<ChatEvent, { type: 'error' }>).error;
    expect(error.kind).toBe('overloaded');
    expect(error.message).toBe('anthropic upstream: Overloaded');
  });

  it('reports a stream cut before message_stop as an error event', async () => {
    const events = await decode(START + sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    expect(events[events.length - 1].type).toBe('error');
  });

  it('reads the stop sequence', async () => {
    const events = await decode(
      START + sse('message_delta', { delta: { stop_reason: 'stop_sequence', stop_sequence: 'END' }, usage: { output_tokens: 3 } }) + sse('message_stop', {}),
      1000,
    );
    expect(events[1]).toMatchObject({ type: 'finish', finishReason: 'stop_sequence', stopSequence: 'END' });
  });
});
