import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { RouteInfo } from '../../core/route.js';
import type { ChatCall, ChatOutcome, GatewayServices } from '../../gateway/contract.js';
import { openaiSurface } from './index.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';
import { openAIStreamErrorFrame } from './render-chat-stream.js';

const KEY = 'sk-gw-test-key';
const route: RouteInfo = { channel: 'stub-channel', provider: 'sandbox', simulated: true, upstreamModel: 'stub-model', attempts: 1, passthrough: false };

async function* toolCallStream(): AsyncGenerator<ChatEvent> {
  yield { type: 'start', id: 'chatcmpl-stream1', model: 'textmodel-b-4o', created: 1_700_000_500 };
  yield { type: 'text_delta', text: 'Let me look.' };
  yield { type: 'tool_call_start', index: 1, id: 'call_w', name: 'get_weather' };
  for (const piece of ['{"ci', 'ty":"Pa', 'ris","days":', '3}']) yield { type: 'tool_call_delta', index: 1, argumentsDelta: piece };
  yield { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 40, outputTokens: 12, cacheReadTokens: 32 } };
}

async function* failingStream(): AsyncGenerator<ChatEvent> {
  yield { type: 'start', id: 'chatcmpl-fail', model: 'textmodel-b-4o', created: 1_700_000_600 };
  yield { type: 'text_delta', text: 'Partial' };
  throw new GatewayError('upstream', 'upstream stream broke off: socket hang up');
}

describe('openaiSurface driven by the official openai SDK', () => {
  let app: FastifyInstance;
  let client: OpenAI;
  const calls: ChatCall[] = [];

  const services: GatewayServices = {
    ...unusedServices,
    async authenticate(presented) {
      if (presented !== KEY) throw new GatewayError('authentication', 'Incorrect API key provided');
      return { id: 'key-1', name: 'test', models: null, isMaster: false, accountId: null };
    },
    async chat(call): Promise<ChatOutcome> {
      calls.push(call);
      const text = call.canonical().messages.at(-1)?.content[0];
      const said = text?.type === 'text' ? text.text : '';
      if (said === 'passthrough') {
        const body = JSON.stringify({
          id: 'chatcmpl-up',
          object: 'chat.completion',
          created: 1_700_000_700,
          model: 'gpt-4o-2024-08-06',
          choices: [{ index: 0, message: { role: 'assistant', content: 'relayed', refusal: null }, logprobs: null, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        });
        return {
          kind: 'passthrough',
          route: { ...route, provider: 'openai', simulated: false },
          response: {
            status: 200,
            headers: { 'content-type': 'application/json' },
            upstreamRequestId: 'req_up',
            body: Readable.from([body]),
            usage: Promise.resolve({ completed: true, producedText: '' }),
          },
        };
      }
      if (call.canonical().stream) return { kind: 'stream', route, events: said === 'fail' ? failingStream() : toolCallStream() };
      return {
        kind: 'response',
        route,
        response: {
          id: 'chatcmpl-resp1',
          model: call.canonical().model,
          created: 1_700_000_400,
          content: [{ type: 'text', text: `echo: ${said}` }],
          finishReason: 'stop',
          usage: { inputTokens: 10, outputTokens: 2 },
        },
      };
    },
    listModels: () => [],
  };

  beforeAll(async () => {
    app = Fastify();
    await openaiSurface.register(app, services);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    client = new OpenAI({ baseURL: `${address}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  afterAll(() => app.close());

  it('answers chat.completions.create without streaming', async () => {
    const { data: completion, response } = await client.chat.completions
      .create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'ping' }], temperature: 0.3 })
      .withResponse();
    expect(completion).toEqual({
      id: 'chatcmpl-resp1',
      object: 'chat.completion',
      created: 1_700_000_400,
      model: 'textmodel-b-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: 'echo: ping', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 2,
        total_tokens: 12,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(response.headers.get('x-gengate-provider')).toBe('sandbox');
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    const call = calls.at(-1)!;
    expect(call.surface).toBe('openai');
    expect(call.canonical().temperature).toBe(0.3);
    expect(call.raw).toEqual({
      dialect: 'openai',
      body: { model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'ping' }], temperature: 0.3 },
      stream: false,
      errorEvent: openAIStreamErrorFrame,
    });
  });

  it('streams a tool call that the SDK reassembles', async () => {
    const stream = client.chat.completions.stream({
      model: 'textmodel-b-4o',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.content).toBe('Let me look.');
    expect(final.choices[0].message.tool_calls).toEqual([
      { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","days":3}' } },
    ]);
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(final.usage).toEqual({
      prompt_tokens: 40,
      completion_tokens: 12,
      total_tokens: 52,
      prompt_tokens_details: { cached_tokens: 32 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(calls.at(-1)!.canonical().includeUsage).toBe(true);
  });

  it('surfaces a failure after the first frames as an APIError thrown by the SDK stream', async () => {
    const stream = await client.chat.completions.create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'fail' }], stream: true });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(texts).toEqual(['', 'Partial']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('upstream stream broke off: socket hang up');
  });

  it('rejects a bad request with a BadRequestError naming the param', async () => {
    const error = await client.chat.completions
      .create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }], stop: ['a', 'b', 'c', 'd', 'e'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.param).toBe('stop');
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.message).toBe('400 stop: at most 4 entries are allowed, got 5');
  });

  it('rejects an unknown key with an AuthenticationError', async () => {
    const stranger = new OpenAI({ baseURL: client.baseURL, apiKey: 'sk-wrong', maxRetries: 0 });
    const error = await stranger.chat.completions.create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
  });

  it("relays a pass-through answer as the upstream sent it, its request id beside the gateway's", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'passthrough' }] })
      .withResponse();
    expect(data.model).toBe('gpt-4o-2024-08-06');
    expect(data.choices[0].message.content).toBe('relayed');
    expect(response.headers.get('x-gengate-upstream-request-id')).toBe('req_up');
    expect(response.headers.get('x-request-id')).not.toBe('req_up');
    expect(response.headers.get('x-gengate-provider')).toBe('openai');
  });

  it('answers malformed JSON with a 400 in the OpenAI shape', async () => {
    const res = await fetch(`${client.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"model": "x", ',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(body.error.type).toBe('invalid_request_error');
  });
});
