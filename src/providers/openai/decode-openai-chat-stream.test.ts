import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { decodeOpenAIChatStream } from './decode-openai-chat-stream.js';

const meta = { id: 'chatcmpl-9', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini' };
const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  `data: ${JSON.stringify({ ...meta, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;

/** Feeds the text in pieces of `size` characters, so frames split anywhere. */
async function* pieces(text: string, size = 7): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function decode(text: string, size?: number): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of decodeOpenAIChatStream(pieces(text, size), { model: 'fallback-model' })) events.push(event);
  return events;
}

describe('decodeOpenAIChatStream', () => {
  it('decodes text, the finish reason and the usage chunk that follows it', async () => {
    const text =
      chunk({ role: 'assistant', content: '', refusal: null }, null, { usage: null }) +
      chunk({ content: 'Hel' }, null, { usage: null }) +
      chunk({ content: 'lo' }, null, { usage: null }) +
      chunk({}, 'stop', { usage: null }) +
      `data: ${JSON.stringify({
        ...meta,
        choices: [],
        usage: {
          prompt_tokens: 1500,
          completion_tokens: 2,
          total_tokens: 1502,
          prompt_tokens_details: { cached_tokens: 1280 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      })}\n\n` +
      'data: [DONE]\n\n';
    expect(await decode(text)).toEqual([
      { type: 'start', id: 'chatcmpl-9', model: 'gpt-4o-mini', created: 1_700_000_000 },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1500, outputTokens: 2, cacheReadTokens: 1280 } },
    ]);
  });

  it('reassembles tool calls whose arguments are split across chunks, two calls by index', async () => {
    const text =
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Oslo"}' } }] }) +
      chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } }] }) +
      chunk({}, 'tool_calls') +
      'data: [DONE]\n\n';
    expect(await decode(text, 13)).toEqual([
      { type: 'start', id: 'chatcmpl-9', model: 'gpt-4o-mini', created: 1_700_000_000 },
      { type: 'tool_call_start', index: 0, id: 'call_a', name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"ci' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: 'ty":"Oslo"}' },
      { type: 'tool_call_start', index: 1, id: 'call_b', name: 'get_time' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
  });

  it('waits for the name when an upstream sends the id first, replaying early arguments', async () => {
    const text =
      chunk({ tool_calls: [{ index: 0, id: 'call_x', type: 'function', function: { arguments: '{"a"' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { name: 'lookup' } }] }) +
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }) +
      chunk({}, 'tool_calls') +
      'data: [DONE]\n\n';
    expect((await decode(text)).slice(1, -1)).toEqual([
      { type: 'tool_call_start', index: 0, id: 'call_x', name: 'lookup' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a"' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: ':1}' },
    ]);
  });

  it('tells calls apart by id when a server reuses index 0 or omits the index', async () => {
    const text =
      chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"n":1}' } }] }) +
      chunk({ tool_calls: [{ index: 0, id: 'call_2', function: { name: 'g', arguments: '{"n":2}' } }] }) +
      chunk({ tool_calls: [{ id: 'call_3', function: { name: 'h', arguments: '{' } }] }) +
      chunk({ tool_calls: [{ function: { arguments: '}' } }] }) +
      chunk({}, 'tool_calls') +
      'data: [DONE]\n\n';
    expect((await decode(text)).slice(1, -1)).toEqual([
      { type: 'tool_call_start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"n":1}' },
      { type: 'tool_call_start', index: 1, id: 'call_2', name: 'g' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"n":2}' },
      { type: 'tool_call_start', index: 2, id: 'call_3', name: 'h' },
      { type: 'tool_call_delta', index: 2, argumentsDelta: '{' },
      { type: 'tool_call_delta', index: 2, argumentsDelta: '}' },
    ]);
  });

  it('turns an in-stream error chunk into an error event', async () => {
    const events = await decode(
      chunk({ role: 'assistant', content: 'Hi' }) +
        `data: ${JSON.stringify({ error: { message: 'The server had an error', type: 'server_error', param: null, code: null } })}\n\n`,
    );
    expect(events.slice(0, 2)).toEqual([
      { type: 'start', id: 'chatcmpl-9', model: 'gpt-4o-mini', created: 1_700_000_000 },
      { type: 'text_delta', text: 'Hi' },
    ]);
    const last = events[2];
    expect(last.type).toBe('error');
    if (last.type === 'error') expect(last.error.message).toBe('upstream stream failed: The server had an error');
  });

  it('reports a stream that ends without a finish reason', async () => {
    const events = await decode(chunk({ content: 'Hi' }));
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    if (last.type === 'error') expect(last.error.message).toBe('upstream stream ended early');
  });

  it('finishes without [DONE] when the finish reason came, and reads reasoning deltas', async () => {
    const events = await decode(chunk({ reasoning_content: 'thinking…' }) + chunk({ content: 'ok' }) + chunk({}, 'length'));
    expect(events.slice(1)).toEqual([
      { type: 'thinking_delta', text: 'thinking…' },
      { type: 'text_delta', text: 'ok' },
      { type: 'finish', finishReason: 'length', usage: { inputTokens: 0, outputTokens: 0 } },
    ]);
  });

  it('reports a malformed chunk as an error', async () => {
    const events = await decode('data: {"id":\n\n');
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('error');
  });

  it('turns a broken connection into an error event', async () => {
    async function* broken(): AsyncGenerator<string> {
      yield chunk({ content: 'Hi' });
      throw new Error('other side closed');
    }
    const events: ChatEvent[] = [];
    for await (const event of decodeOpenAIChatStream(broken(), { model: 'm' })) events.push(event);
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    if (last.type === 'error') expect(last.error.message).toBe('upstream stream broke off: other side closed');
  });
});
