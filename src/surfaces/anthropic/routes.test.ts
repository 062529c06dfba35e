/**
 * Drives the Anthropic surface in a bare Fastify app through the official SDKs: 1.x
 * (`Authorization: Bearer`) and 0.x (`x-api-key`), with a stub GatewayServices.
 */
import { Readable } from 'node:stream';
import Anthropic, { AuthenticationError, BadRequestError, OverloadedError } from '@anthropic-ai/sdk';
import Anthropic0 from 'anthropic-sdk-0';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { RouteInfo } from '../../core/route.js';
import type { ChatCall, ChatOutcome, GatewayServices } from '../../gateway/contract.js';
import { anthropicSurface } from './index.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';

const KEY = 'gk-test-key';
const MODEL = 'textmodel-a-sonnet-4-20250514';
const ROUTE: RouteInfo = {
  channel: 'claude-main',
  provider: 'anthropic',
  simulated: false,
  upstreamModel: 'claude-sonnet-4-20250514',
  attempts: 1,
  passthrough: false,
};
const AUTH_KEY: AuthenticatedKey = { id: 'k1', name: 'test', models: null, isMaster: false, accountId: null };

let app: FastifyInstance;
let baseURL: string;
const calls: ChatCall[] = [];
const presented: Array<string | undefined> = [];
let outcome: (call: ChatCall) => ChatOutcome | Promise<ChatOutcome>;

const services: GatewayServices = {
  ...unusedServices,
  async authenticate(key) {
    presented.push(key);
    if (key !== KEY) throw new GatewayError('authentication', 'invalid API key');
    return AUTH_KEY;
  },
  async chat(call) {
    calls.push(call);
    // As the gateway does before a translating channel: the canonical parse validates the request.
    call.canonical();
    return outcome(call);
  },
  listModels: () => [],
};

async function* events(list: ChatEvent[]): AsyncGenerator<ChatEvent> {
  for (const event of list) yield event;
}

beforeAll(async () => {
  app = Fastify();
  await app.register(async (scope) => anthropicSurface.register(scope, services));
  baseURL = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
});

beforeEach(() => {
  calls.length = 0;
  presented.length = 0;
});

const client1 = (): Anthropic => new Anthropic({ apiKey: KEY, baseURL, maxRetries: 0 });
const client0 = (): Anthropic0 => new Anthropic0({ apiKey: KEY, baseURL, maxRetries: 0 });

describe('anthropic surface through @anthropic-ai/sdk 1.x', () => {
  it('messages.create returns the rendered message; the key comes from Authorization: Bearer', async () => {
    outcome = () => ({
      kind: 'response',
      route: ROUTE,
      response: {
        id: 'msg_0001',
        model: MODEL,
        created: 1,
        content: [{ type: 'text', text: 'Hello there.' }],
        finishReason: 'stop',
        usage: { inputTokens: 120, outputTokens: 4, cacheReadTokens: 100 },
      },
    });
    const { data, response } = await client1()
      .messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(data).toEqual({
      id: 'msg_0001',
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'Hello there.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 4, cache_creation_input_tokens: 0, cache_read_input_tokens: 100 },
    });
    expect(presented).toEqual([KEY]);
    expect(response.headers.get('request-id')).toMatch(/^req-/);
    expect(response.headers.get('x-gengate-channel')).toBe('claude-main');
    expect(response.headers.get('x-gengate-provider')).toBe('anthropic');
    const call = calls[0];
    expect(call.surface).toBe('anthropic');
    expect(call.canonical()).toEqual({ model: MODEL, maxTokens: 64, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false });
    expect(call.raw).toMatchObject({
      dialect: 'anthropic',
      body: { model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] },
      stream: false,
    });
    expect(call.raw?.headers?.['anthropic-version']).toBe('2026-10-21');
    expect(call.requestId).toBe(response.headers.get('request-id'));
  });

  it('messages.stream with a tool call: finalMessage() holds the tool_use input object', async () => {
    outcome = () => ({
      kind: 'stream',
      route: ROUTE,
      events: events([
        { type: 'start', id: 'msg_0002', model: MODEL, created: 1, usage: { inputTokens: 50 } },
        { type: 'text_delta', text: 'Let me check.' },
        { type: 'tool_call_start', index: 0, id: 'toolu_01', name: 'get_weather' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":"Pa' },
        { type: 'tool_call_delta', index: 0, argumentsDelta: 'ris","days":3}' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 50, outputTokens: 17 } },
      ]),
    });
    const stream = client1().messages.stream({
      model: MODEL,
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } }],
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const message = await stream.finalMessage();
    expect(texts).toEqual(['Let me check.']);
    expect(message.id).toBe('msg_0002');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris', days: 3 } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 50, output_tokens: 17 });
    expect(calls[0].canonical().stream).toBe(true);
    expect(calls[0].canonical().tools).toEqual([
      { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
    ]);
  });

  it('a mid-stream failure reaches the SDK as an overloaded_error', async () => {
    outcome = () => ({
      kind: 'stream',
      route: ROUTE,
      events: events([
        { type: 'start', id: 'msg_0003', model: MODEL, created: 1, usage: { inputTokens: 5 } },
        { type: 'text_delta', text: 'Partial' },
        { type: 'error', error: new GatewayError('overloaded', 'upstream overloaded', { retryable: true }) },
      ]),
    });
    const stream = client1().messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] });
    const error = await stream.finalMessage().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error');
    expect((error as Error).message).toContain('upstream overloaded');
  });

  it('temperature 1.5 is a BadRequestError naming temperature', async () => {
    outcome = () => {
      throw new Error('chat must not be called');
    };
    // The 1.x SDK types no longer list sampling parameters, but JavaScript callers still send them.
    const params = { model: MODEL, max_tokens: 16, temperature: 1.5, messages: [{ role: 'user', content: 'Hi' }] };
    const error = await client1()
      .messages.create(params as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('temperature');
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'temperature: must be ≤ 1, got 1.5' } });
    expect(bad.requestID).toMatch(/^req-/);
    // Refused by the canonical parse the gateway runs for a translating channel, before any provider.
    expect(calls).toHaveLength(1);
  });

  it('a wrong key is an AuthenticationError', async () => {
    const error = await new Anthropic({ apiKey: 'nope', baseURL, maxRetries: 0 }).messages
      .create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).type).toBe('authentication_error');
  });

  it('an overloaded gateway answers 529 overloaded_error', async () => {
    outcome = () => {
      throw new GatewayError('overloaded', 'all channels are overloaded', { retryable: true });
    };
    const error = await client1()
      .messages.create({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(OverloadedError);
    expect((error as OverloadedError).status).toBe(529);
    expect((error as OverloadedError).type).toBe('overloaded_error');
  });

  it('relays a pass-through answer byte for byte, keeping the gateway request id', async () => {
    const upstream = JSON.stringify({
      id: 'msg_up',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-20250514',
      content: [{ type: 'text', text: 'relayed' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 1 },
    });
    outcome = () => ({
      kind: 'passthrough',
      route: ROUTE,
      response: {
        status: 200,
        headers: { 'content-type': 'application/json' },
        upstreamRequestId: 'req_upstream_1',
        body: Readable.from([Buffer.from(upstream)]),
        usage: Promise.resolve({ usage: { inputTokens: 3, outputTokens: 1 }, completed: true, producedText: '' }),
      },
    });
    const { data, response } = await client1()
      .messages.create(
        { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
        { headers: { 'anthropic-beta': 'prompt-caching-2024-07-31' } },
      )
      .withResponse();
    expect(JSON.stringify(data)).toBe(upstream);
    expect(response.headers.get('request-id')).toMatch(/^req-/);
    expect(response.headers.get('x-gengate-upstream-request-id')).toBe('req_upstream_1');
    expect(calls[0].raw?.headers).toEqual({ 'anthropic-version': '2026-10-21', 'anthropic-beta': 'prompt-caching-2024-07-31' });
  });

  it('messages.countTokens answers an estimate', async () => {
    const result = await client1().messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'Hello world' }] });
    expect(result).toEqual({ input_tokens: 5 });
  });
});

describe('anthropic surface through the 0.x SDK (x-api-key)', () => {
  it('messages.create sends x-api-key and gets the message', async () => {
    outcome = () => ({
      kind: 'response',
      route: ROUTE,
      response: {
        id: 'msg_0x',
        model: MODEL,
        created: 1,
        content: [{ type: 'tool_call', id: 'call_Q1', name: 'lookup', arguments: '{"q":"gengate"}' }],
        finishReason: 'tool_calls',
        usage: { inputTokens: 9, outputTokens: 6 },
      },
    });
    const message = await client0().messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Look it up' }],
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } }],
      tool_choice: { type: 'any' },
    });
    expect(presented).toEqual([KEY]);
    expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_call_Q1', name: 'lookup', input: { q: 'gengate' } }]);
    expect(message.stop_reason).toBe('tool_use');
    expect(calls[0].canonical().toolChoice).toEqual({ type: 'required' });
    expect(calls[0].raw?.headers?.['anthropic-version']).toBe('2023-06-01');
  });

  it('messages.stream accumulates text deltas', async () => {
    outcome = () => ({
      kind: 'stream',
      route: ROUTE,
      events: events([
        { type: 'start', id: 'msg_0y', model: MODEL, created: 1, usage: { inputTokens: 4 } },
        { type: 'text_delta', text: 'Hello, ' },
        { type: 'text_delta', text: 'world.' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 3 } },
      ]),
    });
    const message = await client0()
      .messages.stream({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Hello, world.' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(3);
  });

  it('temperature 1.5 is a BadRequestError naming temperature', async () => {
    const error = await client0()
      .messages.create({ model: MODEL, max_tokens: 16, temperature: 1.5, messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Anthropic0.BadRequestError);
    const bad = error as InstanceType<typeof Anthropic0.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('temperature: must be ≤ 1, got 1.5');
    expect(bad.error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'temperature: must be ≤ 1, got 1.5' },
      request_id: bad.requestID,
    });
  });

  it('missing max_tokens is a 400 naming max_tokens', async () => {
    const response = await fetch(`${baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string }; request_id: string };
    expect(body).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: is required' },
      request_id: response.headers.get('request-id'),
    });
  });
});
