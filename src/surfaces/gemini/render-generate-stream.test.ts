import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { renderGeminiJsonArrayStream, renderGeminiSseStream } from './render-generate-stream.js';

async function* from(events: ChatEvent[], failWith?: Error): AsyncGenerator<ChatEvent> {
  for (const event of events) yield event;
  if (failWith) throw failWith;
}

async function collect(frames: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const frame of frames) out.push(frame);
  return out;
}

const start: ChatEvent = { type: 'start', id: 'resp-7', model: 'textmodel-c-2.5-flash', created: 1_700_000_000 };

describe('renderGeminiSseStream', () => {
  it('streams text chunks and finishes with finishReason and usage, no event lines and no [DONE]', async () => {
    const frames = await collect(
      renderGeminiSseStream(
        from([
          start,
          { type: 'text_delta', text: 'Hello' },
          { type: 'text_delta', text: ' world' },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 2 } },
        ]),
      ),
    );
    expect(frames).toEqual([
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"}]},"index":0}],"modelVersion":"textmodel-c-2.5-flash","responseId":"resp-7"}\n\n',
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":" world"}]},"index":0}],"modelVersion":"textmodel-c-2.5-flash","responseId":"resp-7"}\n\n',
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"index":0,"finishReason":"STOP"}],"modelVersion":"textmodel-c-2.5-flash","responseId":"resp-7","usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7}}\n\n',
    ]);
  });

  it('emits each tool call once, with complete args, in the finishing chunk', async () => {
    const frames = await collect(
      renderGeminiSseStream(
        from([
          start,
          { type: 'tool_call_start', index: 0, id: 'call_a', name: 'get_weather' },
          { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":' },
          { type: 'tool_call_start', index: 1, id: 'call_b', name: 'get_time' },
          { type: 'tool_call_delta', index: 0, argumentsDelta: '"Paris"}' },
          { type: 'tool_call_delta', index: 1, argumentsDelta: '{}' },
          { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 9, outputTokens: 12 } },
        ]),
      ),
    );
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0].slice('data: '.length))).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } } },
              { functionCall: { id: 'call_b', name: 'get_time', args: {} } },
            ],
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      modelVersion: 'textmodel-c-2.5-flash',
      responseId: 'resp-7',
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 12, totalTokenCount: 21 },
    });
  });

  it('flushes a finished tool call before text that follows it, and marks thoughts', async () => {
    const frames = await collect(
      renderGeminiSseStream(
        from([
          start,
          { type: 'thinking_delta', text: 'Hmm.' },
          { type: 'tool_call_start', index: 0, id: 'c1', name: 'f' },
          { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":1}' },
          { type: 'text_delta', text: 'Done.' },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
        ]),
      ),
    );
    const parts = frames.map((f) => JSON.parse(f.slice(6)).candidates[0].content.parts);
    expect(parts).toEqual([
      [{ text: 'Hmm.', thought: true }],
      [{ functionCall: { id: 'c1', name: 'f', args: { x: 1 } } }],
      [{ text: 'Done.' }],
      [{ text: '' }],
    ]);
  });

  it('sends a thought signature on a thought part of its own, as Gemini does', async () => {
    const frames = await collect(
      renderGeminiSseStream(
        from([
          start,
          { type: 'thinking_delta', text: 'Hmm.' },
          { type: 'thinking_delta', text: '', signature: 'sig-1' },
          { type: 'text_delta', text: 'Done.' },
          { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
        ]),
      ),
    );
    const parts = frames.map((f) => JSON.parse(f.slice(6)).candidates[0].content.parts);
    expect(parts).toEqual([[{ text: 'Hmm.', thought: true }], [{ text: '', thought: true, thoughtSignature: 'sig-1' }], [{ text: 'Done.' }], [{ text: '' }]]);
  });

  it('stops with an error chunk instead of holding tool-call arguments without bound', async () => {
    async function* endless(): AsyncGenerator<ChatEvent> {
      yield start;
      yield { type: 'tool_call_start', index: 0, id: 'c1', name: 'f' };
      const piece = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 1000; i++) yield { type: 'tool_call_delta', index: 0, argumentsDelta: piece };
      yield { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1 } };
    }
    const frames = await collect(renderGeminiSseStream(endless()));
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0].slice(6))).toMatchObject({ error: { code: 502, message: expect.stringContaining('tool-call arguments') } });
  });

  it('keeps interleaved argument deltas of parallel calls apart', async () => {
    const frames = await collect(
      renderGeminiSseStream(
        from([
          start,
          { type: 'tool_call_start', index: 0, id: 'c1', name: 'f' },
          { type: 'tool_call_start', index: 1, id: 'c2', name: 'g' },
          { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":' },
          { type: 'tool_call_delta', index: 1, argumentsDelta: '{"b":' },
          { type: 'tool_call_delta', index: 0, argumentsDelta: '1}' },
          { type: 'tool_call_delta', index: 1, argumentsDelta: '2}' },
          { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1 } },
        ]),
      ),
    );
    expect(JSON.parse(frames[0].slice(6)).candidates[0].content.parts).toEqual([
      { functionCall: { id: 'c1', name: 'f', args: { a: 1 } } },
      { functionCall: { id: 'c2', name: 'g', args: { b: 2 } } },
    ]);
  });

  it('ends with an error chunk when the event stream fails after chunks went out', async () => {
    const frames = await collect(
      renderGeminiSseStream(from([start, { type: 'text_delta', text: 'Hi' }], new GatewayError('overloaded', 'upstream is overloaded'))),
    );
    expect(frames[1]).toBe('data: {"error":{"code":503,"message":"upstream is overloaded","status":"UNAVAILABLE"}}\n\n');
  });

  it('renders an error event as the error chunk', async () => {
    const frames = await collect(
      renderGeminiSseStream(from([start, { type: 'error', error: new GatewayError('rate_limit', 'slow down') }, { type: 'text_delta', text: 'ignored' }])),
    );
    expect(frames).toEqual(['data: {"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}\n\n']);
  });

  it('reports a stream that ends without finishing', async () => {
    const frames = await collect(renderGeminiSseStream(from([start, { type: 'text_delta', text: 'Hi' }])));
    expect(JSON.parse(frames[1].slice(6))).toEqual({
      error: { code: 502, message: 'the upstream stream ended before the response was complete', status: 'UNAVAILABLE' },
    });
  });
});

describe('renderGeminiJsonArrayStream', () => {
  it('streams a JSON array of responses that parses as a whole', async () => {
    const frames = await collect(
      renderGeminiJsonArrayStream(
        from([start, { type: 'text_delta', text: 'Hi' }, { type: 'finish', finishReason: 'length', usage: { inputTokens: 2, outputTokens: 1 } }]),
      ),
    );
    expect(frames[0].startsWith('[{')).toBe(true);
    expect(frames[1].startsWith(',\r\n{')).toBe(true);
    expect(frames[2]).toBe(']');
    expect(JSON.parse(frames.join(''))).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }], modelVersion: 'textmodel-c-2.5-flash', responseId: 'resp-7' },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0, finishReason: 'MAX_TOKENS' }],
        modelVersion: 'textmodel-c-2.5-flash',
        responseId: 'resp-7',
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 },
      },
    ]);
  });

  it('closes the array after a trailing error element', async () => {
    const frames = await collect(renderGeminiJsonArrayStream(from([start], new Error('boom'))));
    expect(JSON.parse(frames.join(''))).toEqual([{ error: { code: 500, message: 'internal error', status: 'INTERNAL' } }]);
  });
});
