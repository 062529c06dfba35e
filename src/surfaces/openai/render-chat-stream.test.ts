import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { renderOpenAIChatStream } from './render-chat-stream.js';

async function* from(events: ChatEvent[], thenThrow?: Error): AsyncGenerator<ChatEvent> {
  for (const event of events) yield event;
  if (thenThrow) throw thenThrow;
}

async function frames(events: AsyncIterable<ChatEvent>, includeUsage = false): Promise<string[]> {
  const out: string[] = [];
  for await (const frame of renderOpenAIChatStream(events, { model: 'textmodel-b-4o', includeUsage })) out.push(frame);
  return out;
}

const start: ChatEvent = { type: 'start', id: 'chatcmpl-1', model: 'textmodel-b-4o', created: 1_700_000_000 };
const head = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"textmodel-b-4o","choices":';

describe('renderOpenAIChatStream', () => {
  it('streams text as chat.completion.chunk frames ending with [DONE]', async () => {
    expect(
      await frames(
        from([
          start,
          { type: 'text_delta', text: 'Hel' },
          { type: 'text_delta', text: 'lo' },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 2 } },
        ]),
      ),
    ).toEqual([
      `data: ${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"content":"Hel"},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"content":"lo"},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n`,
      'data: [DONE]\n\n',
    ]);
  });

  it('streams thinking as reasoning_content, then the signed block whole in thinking_blocks', async () => {
    expect(
      await frames(
        from([
          start,
          { type: 'thinking_delta', text: 'Let me ' },
          { type: 'thinking_delta', text: 'think.' },
          { type: 'thinking_delta', text: '', signature: 'sig-1' },
          { type: 'text_delta', text: 'Hi' },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 2 } },
        ]),
      ),
    ).toEqual([
      `data: ${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"reasoning_content":"Let me "},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"reasoning_content":"think."},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"thinking_blocks":[{"type":"thinking","thinking":"Let me think.","signature":"sig-1"}]},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\n`,
      'data: [DONE]\n\n',
    ]);
  });

  it('adds usage:null to every chunk and a final usage chunk when include_usage is set', async () => {
    expect(
      await frames(
        from([
          start,
          { type: 'text_delta', text: 'Hi' },
          { type: 'usage', usage: { inputTokens: 2000, cacheReadTokens: 1536 } },
          { type: 'finish', finishReason: 'length', usage: { inputTokens: 2000, outputTokens: 1, cacheReadTokens: 1536, reasoningTokens: 0 } },
        ]),
        true,
      ),
    ).toEqual([
      `data: ${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`,
      `data: ${head}[{"index":0,"delta":{"content":"Hi"},"logprobs":null,"finish_reason":null}],"usage":null}\n\n`,
      `data: ${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length"}],"usage":null}\n\n`,
      `data: ${head}[],"usage":{"prompt_tokens":2000,"completion_tokens":1,"total_tokens":2001,"prompt_tokens_details":{"cached_tokens":1536},"completion_tokens_details":{"reasoning_tokens":0}}}\n\n`,
      'data: [DONE]\n\n',
    ]);
  });

  it('streams tool calls numbered from 0 whatever the canonical block index', async () => {
    expect(
      await frames(
        from([
          start,
          { type: 'text_delta', text: 'Checking.' },
          { type: 'tool_call_start', index: 1, id: 'call_a', name: 'get_weather' },
          { type: 'tool_call_delta', index: 1, argumentsDelta: '{"city":' },
          { type: 'tool_call_delta', index: 1, argumentsDelta: '"Paris"}' },
          { type: 'tool_call_start', index: 2, id: 'call_b', name: 'get_time' },
          { type: 'tool_call_delta', index: 2, argumentsDelta: '{}' },
          { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 9, outputTokens: 20 } },
        ]),
      ),
    ).toEqual([
      `data: ${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"content":"Checking."},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}}]},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\"Paris\\"}"}}]},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":""}}]},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]},"logprobs":null,"finish_reason":null}]}\n\n`,
      `data: ${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}\n\n`,
      'data: [DONE]\n\n',
    ]);
  });

  it('renders an error event as an in-stream error and stops', async () => {
    const out = await frames(
      from([
        start,
        { type: 'text_delta', text: 'Hi' },
        { type: 'error', error: new GatewayError('overloaded', 'upstream overloaded', { code: 'overloaded' }) },
        { type: 'text_delta', text: 'never' },
      ]),
    );
    expect(out.slice(2)).toEqual(['data: {"error":{"message":"upstream overloaded","type":"server_error","param":null,"code":"overloaded"}}\n\n']);
  });

  it('renders an exception thrown by the event source after frames went out', async () => {
    const out = await frames(from([start, { type: 'text_delta', text: 'Hi' }], new Error('socket hang up')));
    expect(out).toHaveLength(3);
    expect(out[2]).toBe('data: {"error":{"message":"internal error","type":"server_error","param":null,"code":null}}\n\n');
  });

  it('reports a stream that ends without finishing', async () => {
    const out = await frames(from([start, { type: 'text_delta', text: 'Hi' }]));
    expect(JSON.parse(out[2].slice('data: '.length))).toEqual({
      error: { message: 'upstream stream ended before the response was complete', type: 'server_error', param: null, code: 'upstream_error' },
    });
  });

  it('invents a chunk id when the source fails before start, and uses the requested model', async () => {
    const out = await frames(
      from([
        { type: 'text_delta', text: 'x' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
      ]),
    );
    const first = JSON.parse(out[0].slice('data: '.length)) as { id: string; model: string; created: number };
    const last = JSON.parse(out[2].slice('data: '.length)) as { id: string };
    expect(first.id).toMatch(/^chatcmpl-[A-Za-z0-9]{29}$/);
    expect(last.id).toBe(first.id);
    expect(first.model).toBe('textmodel-b-4o');
  });
});
