import OpenAI, { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { renderResponsesStream } from './render-responses-stream.js';
import { responsesStreamErrorFrame } from './render-stream-error.js';
import type { RenderContext } from './seams.js';

describe('responsesStreamErrorFrame', () => {
  it('writes OpenAI’s error event: code, message and param at the top, and the error object under error too', () => {
    const frame = responsesStreamErrorFrame(new GatewayError('overloaded', 'the gateway is shutting down'), 7);
    expect(frame.startsWith('event: error\ndata: ')).toBe(true);
    expect(frame.endsWith('\n\n')).toBe(true);
    expect(JSON.parse(frame.slice('event: error\ndata: '.length))).toEqual({
      type: 'error',
      sequence_number: 7,
      code: 'overloaded',
      message: 'the gateway is shutting down',
      param: null,
      error: { type: 'server_error', code: 'overloaded', message: 'the gateway is shutting down', param: null },
    });
  });

  it('numbers the event after every other one when the caller does not know the next number', () => {
    const frame = responsesStreamErrorFrame(new GatewayError('permission', 'this key was revoked', { code: 'key_revoked' }));
    expect(JSON.parse(frame.slice(frame.indexOf('{')))).toMatchObject({ sequence_number: Number.MAX_SAFE_INTEGER, code: 'key_revoked', param: null });
  });

  it('makes the openai SDK’s finalResponse() reject with the error, after the events before it', async () => {
    const context: RenderContext = {
      responseId: 'resp_cut',
      createdAt: 1_760_000_000,
      model: 'm',
      echo: {},
      provider: 'sandbox',
      sealReasoning: () => 'sealed',
      include: [],
      includeObfuscation: false,
    };
    // The gateway cuts a stream after its first frames: the relay appends the error event.
    const frames: string[] = [];
    const events = (async function* () {
      yield { type: 'start' as const, id: 'x', model: 'm', created: 1 };
      yield { type: 'text_delta' as const, text: 'Hello' };
      yield { type: 'finish' as const, finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } };
    })();
    for await (const frame of renderResponsesStream(events, context, async () => undefined)) frames.push(frame);
    const cut = [...frames.slice(0, 5), responsesStreamErrorFrame(new GatewayError('overloaded', 'the gateway is shutting down'), 5)];
    const client = new OpenAI({
      apiKey: 'test',
      baseURL: 'http://127.0.0.1:9/v1',
      maxRetries: 0,
      fetch: async () => new Response(cut.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    });
    const stream = client.responses.stream({ model: 'm', input: 'hi' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const outcome = await stream.finalResponse().catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(APIError);
    expect((outcome as APIError).message).toContain('the gateway is shutting down');
    expect(deltas).toEqual(['Hello']);
  });
});
