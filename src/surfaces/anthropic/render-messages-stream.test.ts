import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { renderAnthropicMessagesStream } from './render-messages-stream.js';

async function* from(events: ChatEvent[], failWith?: Error): AsyncGenerator<ChatEvent> {
  for (const event of events) yield event;
  if (failWith) throw failWith;
}

/** The frames as [event name, parsed data], checking that each data.type equals its event name. */
async function frames(events: AsyncIterable<ChatEvent>, estimateInput?: () => number): Promise<Array<[string, Record<string, unknown>]>> {
  let text = '';
  for await (const chunk of renderAnthropicMessagesStream(events, 'textmodel-a-sonnet-4-20250514', estimateInput)) text += chunk;
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .trim()
    .split('\n\n')
    .map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      expect(eventLine.startsWith('event: ')).toBe(true);
      expect(dataLine.startsWith('data: ')).toBe(true);
      const name = eventLine.slice(7);
      const data = JSON.parse(dataLine.slice(6)) as Record<string, unknown>;
      expect(data.type).toBe(name);
      return [name, data];
    });
}

const START: ChatEvent = {
  type: 'start',
  id: 'msg_01',
  model: 'textmodel-a-sonnet-4-20250514',
  created: 1,
  usage: { inputTokens: 1500, cacheReadTokens: 1200, cacheWriteTokens: 250 },
};

describe('renderAnthropicMessagesStream', () => {
  it('renders text then a tool call then text in the exact Anthropic order', async () => {
    const out = await frames(
      from([
        START,
        { type: 'text_delta', text: 'Let me ' },
        { type: 'text_delta', text: 'check.' },
        { type: 'tool_call_start', index: 0, id: 'call_1', name: 'get_weather' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
        { type: 'text_delta', text: 'Done.' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1500, outputTokens: 42, cacheReadTokens: 1200, cacheWriteTokens: 250 } },
      ]),
    );
    expect(out).toEqual([
      [
        'message_start',
        {
          type: 'message_start',
          message: {
            id: 'msg_01',
            type: 'message',
            role: 'assistant',
            model: 'textmodel-a-sonnet-4-20250514',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 50, cache_creation_input_tokens: 250, cache_read_input_tokens: 1200, output_tokens: 0 },
          },
        },
      ],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'check.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'content_block_start',
        { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_call_1', name: 'get_weather', input: {} } },
      ],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Done.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 2 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 42 } }],
      ['message_stop', { type: 'message_stop' }],
    ]);
  });

  it('renders thinking with its signature, then text', async () => {
    const out = await frames(
      from([
        START,
        { type: 'thinking_delta', text: 'Hmm.' },
        { type: 'thinking_delta', text: '', signature: 'sig-xyz' },
        { type: 'text_delta', text: 'Answer.' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1500, outputTokens: 5 } },
      ]),
    );
    expect(out.slice(1, 7)).toEqual([
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-xyz' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Answer.' } }],
    ]);
  });

  it('puts input usage into message_delta when the upstream reported it only at the end', async () => {
    const out = await frames(
      from([
        { type: 'start', id: 'chatcmpl-1', model: 'textmodel-a-sonnet-4-20250514', created: 1 },
        { type: 'text_delta', text: 'Hi' },
        { type: 'usage', usage: { inputTokens: 30, cacheReadTokens: 10 } },
        { type: 'finish', finishReason: 'length', usage: { inputTokens: 30, outputTokens: 8, cacheReadTokens: 10 } },
      ]),
    );
    expect(out[0][1]).toMatchObject({
      message: { id: 'msg_chatcmpl-1', usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
    });
    expect(out[out.length - 2]).toEqual([
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: 'max_tokens', stop_sequence: null },
        usage: { output_tokens: 8, input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 10 },
      },
    ]);
  });

  it('opens with the local input estimate when the upstream states input only at the end, and ends with its numbers', async () => {
    const out = await frames(
      from([
        { type: 'start', id: 'chatcmpl-2', model: 'textmodel-a-sonnet-4-20250514', created: 1 },
        { type: 'text_delta', text: 'Hi' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 31, outputTokens: 2 } },
      ]),
      () => 27,
    );
    expect(out[0][1]).toMatchObject({ message: { usage: { input_tokens: 27, output_tokens: 0 } } });
    expect(out[out.length - 2][1]).toMatchObject({ usage: { output_tokens: 2, input_tokens: 31 } });
  });

  it('keeps the upstream input count at message_start when it gave one, without estimating', async () => {
    let asked = false;
    const out = await frames(from([START, { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1500, outputTokens: 5 } }]), () => {
      asked = true;
      return 9;
    });
    expect(out[0][1]).toMatchObject({ message: { usage: { input_tokens: 50 } } });
    expect(asked).toBe(false);
  });

  it('carries the stop sequence', async () => {
    const out = await frames(
      from([
        START,
        { type: 'text_delta', text: 'a' },
        { type: 'finish', finishReason: 'stop_sequence', stopSequence: '###', usage: { inputTokens: 1, outputTokens: 1 } },
      ]),
    );
    expect(out[out.length - 2][1]).toMatchObject({ delta: { stop_reason: 'stop_sequence', stop_sequence: '###' } });
  });

  it('renders an error event from the events as event: error', async () => {
    const out = await frames(
      from([START, { type: 'text_delta', text: 'par' }, { type: 'error', error: new GatewayError('overloaded', 'upstream overloaded', { retryable: true }) }]),
    );
    expect(out.map(([name]) => name)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error']);
    expect(out[3][1]).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'upstream overloaded' } });
  });

  it('renders an exception thrown by the event iterator as event: error instead of crashing', async () => {
    const out = await frames(from([START, { type: 'text_delta', text: 'x' }], new GatewayError('upstream', 'connection reset')));
    expect(out[out.length - 1]).toEqual(['error', { type: 'error', error: { type: 'api_error', message: 'connection reset' } }]);
  });

  it('reports a stream that ends without finish as an error', async () => {
    const out = await frames(from([START, { type: 'text_delta', text: 'x' }]));
    expect(out[out.length - 1][0]).toBe('error');
    expect(out[out.length - 1][1]).toMatchObject({ error: { type: 'api_error' } });
  });

  it('synthesises message_start when the first event is not start', async () => {
    const out = await frames(
      from([
        { type: 'text_delta', text: 'x' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 2, outputTokens: 1 } },
      ]),
    );
    expect(out[0][0]).toBe('message_start');
    const message = (out[0][1] as { message: { id: string; model: string } }).message;
    expect(message.id).toMatch(/^msg_/);
    expect(message.model).toBe('textmodel-a-sonnet-4-20250514');
    expect(out.map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('ignores empty text deltas instead of opening an empty block', async () => {
    const out = await frames(
      from([
        START,
        { type: 'text_delta', text: '' },
        { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'a' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 2 } },
      ]),
    );
    expect(out.map(([name]) => name)).toEqual(['message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(out[1][1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_a', name: 'a', input: {} } });
  });

  it('opens a block per tool call and numbers them after earlier blocks', async () => {
    const out = await frames(
      from([
        START,
        { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'a' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool_call_start', index: 1, id: 'toolu_b', name: 'b' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"x":1}' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 9 } },
      ]),
    );
    expect(out.slice(1, -2).map(([name, data]) => [name, data.index])).toEqual([
      ['content_block_start', 0],
      ['content_block_delta', 0],
      ['content_block_stop', 0],
      ['content_block_start', 1],
      ['content_block_delta', 1],
      ['content_block_stop', 1],
    ]);
  });

  it('holds back an interleaved later tool call until the earlier one is complete', async () => {
    const out = await frames(
      from([
        START,
        { type: 'tool_call_start', index: 0, id: 'call_a', name: 'a' },
        { type: 'tool_call_start', index: 1, id: 'call_b', name: 'b' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"y":2}' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '1}' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 9 } },
      ]),
    );
    expect(out.slice(1, -2)).toEqual([
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_call_a', name: 'a', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"x":' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '1}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_call_b', name: 'b', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"y":2}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ]);
  });

  it('streams the held-back call live once it is the open block, and text after the calls comes last', async () => {
    const out = await frames(
      from([
        START,
        { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'a' },
        { type: 'tool_call_start', index: 1, id: 'toolu_b', name: 'b' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"y":' },
        { type: 'text_delta', text: 'after' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '2}' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 9 } },
      ]),
    );
    expect(out.slice(1, -2).map(([name, data]) => `${name}:${String(data.index)}`)).toEqual([
      'content_block_start:0',
      'content_block_delta:0',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1',
      'content_block_delta:1',
      'content_block_stop:1',
      'content_block_start:2',
      'content_block_delta:2',
      'content_block_stop:2',
    ]);
    expect(out[6][1]).toMatchObject({ index: 1, delta: { partial_json: '2}' } });
    expect(out[9][1]).toMatchObject({ index: 2, delta: { type: 'text_delta', text: 'after' } });
  });

  it('fails with an error event instead of holding back without bound', async () => {
    async function* endless(): AsyncGenerator<ChatEvent> {
      yield START;
      yield { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'a' };
      yield { type: 'tool_call_start', index: 1, id: 'toolu_b', name: 'b' };
      const piece = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 1000; i++) yield { type: 'tool_call_delta', index: 1, argumentsDelta: piece };
      yield { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 9 } };
    }
    const out = await frames(endless());
    expect(out.map(([name]) => name)).toEqual(['message_start', 'content_block_start', 'error']);
    expect(out[2][1]).toMatchObject({ error: { type: 'api_error', message: expect.stringContaining('interleaved more than') } });
  });

  it('reports arguments for a tool call that already closed as an error, not a delta after its stop', async () => {
    const out = await frames(
      from([
        START,
        { type: 'tool_call_start', index: 0, id: 'toolu_a', name: 'a' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' },
        { type: 'tool_call_start', index: 1, id: 'toolu_b', name: 'b' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: ' ' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"late":1}' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 9 } },
      ]),
    );
    expect(out.map(([name]) => name)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'error',
    ]);
  });
});
