/**
 * The Anthropic provider against the fake Anthropic upstream (a real HTTP server that
 * validates like the Messages API).
 */
import Anthropic0 from 'anthropic-sdk-0';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../../test/fakes/fake-anthropic-upstream.js';
import type { ChatEvent, ChatRequest } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig, ChatProvider } from '../types.js';
import { anthropicDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

function testAttempt(channel: Partial<ChannelConfig> = {}, upstreamModel = 'claude-sonnet-4-20250514'): Attempt {
  const base: ChannelConfig = {
    name: 'anthropic-test',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKey: 'sk-ant-test',
    headers: {},
    timeoutMs: 5_000,
    options: {},
  };
  return { channel: { ...base, ...channel }, upstreamModel, signal: new AbortController().signal, requestId: 'req_test' };
}

let fake: FakeAnthropicUpstream;
let provider: ChatProvider;

beforeAll(async () => {
  fake = await startFakeAnthropicUpstream();
  provider = createProvider(anthropicDescriptor).chat!;
});

afterAll(async () => {
  await fake.close();
});

function attempt(upstreamModel = 'claude-sonnet-4-20250514', apiKey = FAKE_ANTHROPIC_KEY): Attempt {
  return testAttempt({ baseUrl: fake.url, apiKey }, upstreamModel);
}

function request(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'textmodel-a-sonnet-4-20250514', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi there' }] }], stream: false, ...extra };
}

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city'] },
};

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

async function readAll(body: NodeJS.ReadableStream | Buffer): Promise<string> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  let text = '';
  for await (const chunk of body) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

describe('anthropic provider: provider object', () => {
  it('declares the chat operation and the anthropic dialect', () => {
    const p = createProvider(anthropicDescriptor);
    expect(p.name).toBe('anthropic');
    expect(p.dialect).toBe('anthropic');
    expect([...p.operations]).toEqual(['chat']);
    expect(typeof p.chat?.passthrough).toBe('function');
  });
});

describe('anthropic provider: chat', () => {
  it('answers text and sends the Messages API request with key and version', async () => {
    const before = fake.requests.length;
    const response = await provider.chat(request(), attempt());
    expect(response.content).toEqual([{ type: 'text', text: 'Hello from the fake Anthropic upstream. You said: Hi there' }]);
    expect(response.finishReason).toBe('stop');
    // One text block of two words = 3 input tokens in the fake's count; ten words out.
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 10, cacheWriteTokens: 0, cacheReadTokens: 0 });
    expect(response.id).toMatch(/^msg_fake/);
    const sent = fake.requests[before];
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(FAKE_ANTHROPIC_KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi there' }] }],
    });
  });

  it('answers a tool call with arguments following the schema', async () => {
    const response = await provider.chat(request({ tools: [WEATHER_TOOL] }), attempt());
    expect(response.finishReason).toBe('tool_calls');
    expect(response.content).toEqual([
      { type: 'text', text: 'I will use get_weather.' },
      { type: 'tool_call', id: expect.stringMatching(/^toolu_fake/), name: 'get_weather', arguments: '{"city":"example","unit":"celsius"}' },
    ]);
  });

  it('fits the request to Anthropic: a metadata.user_id above 256 characters hashed, a dotted tool name renamed and restored', async () => {
    const long = 'u'.repeat(300);
    const warnings: string[] = [];
    const fitted = { ...attempt(), maxOutputTokens: 64_000, warn: (message: string) => warnings.push(message) };
    const response = await provider.chat(
      request({ user: long, maxTokens: 100_000, tools: [{ ...WEATHER_TOOL, name: 'weather.get' }], toolChoice: { type: 'required' } }),
      fitted,
    );
    const sent = fake.requests.at(-1)!.body as { metadata: { user_id: string }; max_tokens: number; tools: Array<{ name: string }> };
    expect(sent.metadata.user_id).toMatch(/^u-[A-Za-z0-9_-]{43}$/);
    expect(sent.max_tokens).toBe(64_000);
    expect(sent.tools[0].name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(response.content.find((part) => part.type === 'tool_call')).toMatchObject({ name: 'weather.get' });
    expect(warnings).toContain("user: longer than Anthropic's limit of 256 characters; sent as its SHA-256 hash");
    await provider.chat(request({ user: 'u'.repeat(256) }), fitted);
    expect((fake.requests.at(-1)!.body as { metadata: { user_id: string } }).metadata.user_id).toBe('u'.repeat(256));
  });

  it('reports cache writes, then cache reads, inside canonical inputTokens', async () => {
    const cached = request({
      model: 'cache-test',
      system: [{ type: 'text', text: 'You are a careful assistant.', cacheControl: { type: 'ephemeral' } }],
    });
    // System block: 1 + 5 words = 6 tokens (the cached prefix); the user block 3 more.
    const first = await provider.chat(cached, attempt('claude-cache-model'));
    expect(first.usage).toEqual({ inputTokens: 9, outputTokens: 10, cacheWriteTokens: 6, cacheReadTokens: 0 });
    const second = await provider.chat(cached, attempt('claude-cache-model'));
    expect(second.usage).toEqual({ inputTokens: 9, outputTokens: 10, cacheWriteTokens: 0, cacheReadTokens: 6 });
  });

  it('merges non-alternating turns and answers a tool loop with foreign tool ids', async () => {
    const response = await provider.chat(
      request({
        messages: [
          { role: 'assistant', content: [{ type: 'text', text: 'Hello, how can I help?' }] },
          { role: 'user', content: [{ type: 'text', text: 'Weather' }] },
          { role: 'user', content: [{ type: 'text', text: 'in Paris?' }] },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: '' },
              { type: 'tool_call', id: 'call.abc/1', name: 'get_weather', arguments: '{"city":"Paris"}' },
            ],
          },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call.abc/1', name: 'get_weather', content: '18 degrees' }] },
        ],
        tools: [WEATHER_TOOL],
      }),
      attempt(),
    );
    expect(response.finishReason).toBe('stop');
    expect(response.content).toEqual([{ type: 'text', text: 'Hello from the fake Anthropic upstream. You said: ' }]);
    const body = fake.requests[fake.requests.length - 1].body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: '(conversation continues)' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello, how can I help?' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather' },
          { type: 'text', text: 'in Paris?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_abc_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_abc_1', content: '18 degrees' }] },
    ]);
  });

  it('stops at a stop sequence and at max_tokens', async () => {
    const stopped = await provider.chat(request({ stop: ['upstream.'] }), attempt());
    expect(stopped).toMatchObject({
      finishReason: 'stop_sequence',
      stopSequence: 'upstream.',
      content: [{ type: 'text', text: 'Hello from the fake Anthropic ' }],
    });
    const cut = await provider.chat(request({ maxTokens: 3 }), attempt());
    expect(cut).toMatchObject({ finishReason: 'length', content: [{ type: 'text', text: 'Hello from the' }] });
  });

  it.each([
    ['fail-400', 'invalid_request', false, 400, 'anthropic upstream: fake scenario: invalid request'],
    ['fail-429', 'rate_limit', true, 429, 'anthropic upstream: fake scenario: rate limited'],
    ['fail-500', 'upstream', true, 500, 'anthropic upstream: fake scenario: internal server error'],
    ['fail-529', 'overloaded', true, 529, 'anthropic upstream: Overloaded'],
  ])('maps the %s scenario to kind %s (retryable %s)', async (scenario, kind, retryable, status, message) => {
    const error = await rejection(provider.chat(request(), attempt(`claude-${scenario}`)));
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.upstreamStatus).toBe(status);
    expect(error.message).toBe(message);
    if (scenario === 'fail-429') expect(error.retryAfter).toBe(7);
  });

  it('treats refused channel credentials as a retryable upstream error', async () => {
    const error = await rejection(provider.chat(request(), attempt('claude-sonnet-4-20250514', 'wrong-key')));
    expect(error.kind).toBe('upstream');
    expect(error.retryable).toBe(true);
    expect(error.upstreamStatus).toBe(401);
    expect(error.message).toContain('invalid x-api-key');
  });

  it('sends a thinking request the API accepts (budget inside the cap, no temperature)', async () => {
    const response = await provider.chat(request({ temperature: 0.5, thinkingBudget: 2000, maxTokens: 3500 }), attempt());
    expect(response.finishReason).toBe('stop');
    const body = fake.requests[fake.requests.length - 1].body as Record<string, unknown>;
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
    expect(body.max_tokens).toBe(3500);
    expect(body.temperature).toBeUndefined();
    expect(response.content[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });
  });

  it('throws a retryable error when the upstream is unreachable', async () => {
    const unreachable = testAttempt({ baseUrl: 'http://127.0.0.1:1', apiKey: FAKE_ANTHROPIC_KEY });
    const error = await rejection(provider.chat(request(), unreachable));
    expect(error.retryable).toBe(true);
  });
});

describe('anthropic provider: chatStream', () => {
  it('streams text events ending with finish and usage', async () => {
    const events = await collect(await provider.chatStream(request({ stream: true }), attempt()));
    expect(events[0]).toMatchObject({ type: 'start', usage: { inputTokens: 3, outputTokens: 1 } });
    const text = events
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e as { text: string }).text)
      .join('');
    expect(text).toBe('Hello from the fake Anthropic upstream. You said: Hi there');
    expect(events[events.length - 1]).toEqual({
      type: 'finish',
      finishReason: 'stop',
      stopSequence: null,
      usage: { inputTokens: 3, outputTokens: 10, cacheWriteTokens: 0, cacheReadTokens: 0 },
    });
    expect((fake.requests[fake.requests.length - 1].body as { stream?: boolean }).stream).toBe(true);
  });

  it('streams a forced tool call as start + argument deltas at canonical index 0', async () => {
    const events = await collect(
      await provider.chatStream(request({ stream: true, tools: [WEATHER_TOOL], toolChoice: { type: 'tool', name: 'get_weather' } }), attempt()),
    );
    const toolEvents = events.filter((e) => e.type === 'tool_call_start' || e.type === 'tool_call_delta');
    expect(toolEvents[0]).toEqual({ type: 'tool_call_start', index: 0, id: expect.stringMatching(/^toolu_fake/), name: 'get_weather' });
    const deltas = toolEvents.slice(1) as Array<{ index: number; argumentsDelta: string }>;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((d) => d.index === 0)).toBe(true);
    expect(JSON.parse(deltas.map((d) => d.argumentsDelta).join(''))).toEqual({ city: 'example', unit: 'celsius' });
    expect(events[events.length - 1]).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    expect((fake.requests[fake.requests.length - 1].body as { tool_choice?: unknown }).tool_choice).toEqual({ type: 'tool', name: 'get_weather' });
  });

  it('turns a mid-stream overloaded_error into an error event', async () => {
    const events = await collect(await provider.chatStream(request({ stream: true }), attempt('claude-midstream-error')));
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'error']);
    expect((events[2] as Extract<ChatEvent, { type: 'error' }>).error.kind).toBe('overloaded');
  });

  it('rejects before any event when the upstream refuses (so the router can fail over)', async () => {
    const error = await rejection(provider.chatStream(request({ stream: true }), attempt('claude-fail-529')));
    expect(error.kind).toBe('overloaded');
    expect(error.retryable).toBe(true);
  });
});

describe('anthropic provider: passthrough', () => {
  it('forwards the raw body with only the model rewritten, relays JSON bytes and reads usage', async () => {
    const body = {
      model: 'textmodel-a-sonnet-4-20250514',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Cache me please now.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'Hi there' }],
      output_config: { effort: 'low' },
    };
    const result = await provider.passthrough!(
      { dialect: 'anthropic', body, stream: false, headers: { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'beta-x' } },
      attempt('claude-pass-json'),
    );
    const sent = fake.requests[fake.requests.length - 1];
    expect(sent.body).toEqual({ ...body, model: 'claude-pass-json' });
    expect(sent.headers['anthropic-version']).toBe('2026-10-21');
    expect(sent.headers['anthropic-beta']).toBe('beta-x');
    expect(result.status).toBe(200);
    expect(result.headers).toEqual({ 'content-type': 'application/json', 'content-length': expect.stringMatching(/^\d+$/) });
    expect(result.upstreamRequestId).toMatch(/^req_fake/);
    const text = await readAll(result.body);
    expect(Buffer.byteLength(text)).toBe(Number(result.headers['content-length']));
    const json = JSON.parse(text) as { model: string; usage: Record<string, number> };
    expect(json.model).toBe('textmodel-a-sonnet-4-20250514');
    // System block 1 + 4 words = 5 (cached, written); string user content "Hi there" = 2.
    expect(json.usage).toEqual({ input_tokens: 2, output_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 0 });
    expect(await result.usage).toEqual({
      usage: { inputTokens: 7, outputTokens: 10, cacheWriteTokens: 5, cacheReadTokens: 0 },
      completed: true,
      producedText: '',
    });
  });

  it('relays SSE as sent (pings included) but for the public model, and taps usage and text', async () => {
    const result = await provider.passthrough!(
      { dialect: 'anthropic', body: { model: 'x', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hi there' }] }, stream: true },
      attempt('claude-pass-sse'),
    );
    expect(result.headers['content-type']).toContain('text/event-stream');
    expect(fake.requests[fake.requests.length - 1].headers['anthropic-version']).toBe('2023-06-01');
    const text = await readAll(result.body);
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_fake')).toBe(true);
    expect(text).toContain('"role":"assistant","model":"x","content":[]');
    expect(text).not.toContain('claude-pass-sse');
    expect(text).toContain('event: ping\ndata: {"type":"ping"}\n\n');
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(await result.usage).toEqual({
      usage: { inputTokens: 2, outputTokens: 10, cacheWriteTokens: 0, cacheReadTokens: 0 },
      completed: true,
      producedText: '',
    });
  });

  it('throws for a non-2xx answer like chat does', async () => {
    const error = await rejection(
      provider.passthrough!(
        { dialect: 'anthropic', body: { model: 'x', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] }, stream: false },
        attempt('claude-fail-429'),
      ),
    );
    expect(error.kind).toBe('rate_limit');
    expect(error.retryAfter).toBe(7);
  });

  it('passes the upstream validation error through as invalid_request', async () => {
    const error = await rejection(
      provider.passthrough!(
        { dialect: 'anthropic', body: { model: 'x', max_tokens: 5, messages: [{ role: 'assistant', content: 'Hi' }] }, stream: false },
        attempt(),
      ),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toContain('first message must use the "user" role');
  });
});

describe('fake upstream fidelity', () => {
  it('is readable by the official 0.x SDK, tool_use input included', async () => {
    const client = new Anthropic0({ apiKey: FAKE_ANTHROPIC_KEY, baseURL: fake.url, maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: 'claude-sonnet-4-20250514',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [{ name: 'get_weather', input_schema: WEATHER_TOOL.parameters as { type: 'object' } }],
        tool_choice: { type: 'any' },
      })
      .finalMessage();
    expect(message.content).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^toolu_fake/), name: 'get_weather', input: { city: 'example', unit: 'celsius' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('takes the scenario from the x-fake-scenario header (sent as a channel header)', async () => {
    const withHeader = testAttempt({ baseUrl: fake.url, apiKey: FAKE_ANTHROPIC_KEY, headers: { 'x-fake-scenario': 'fail-500' } });
    const error = await rejection(provider.chat(request(), withHeader));
    expect(error.upstreamStatus).toBe(500);
  });

  it('rejects a body without max_tokens like the real API', async () => {
    const error = await rejection(
      provider.passthrough!({ dialect: 'anthropic', body: { model: 'x', messages: [{ role: 'user', content: 'Hi' }] }, stream: false }, attempt()),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe('anthropic upstream: max_tokens: Field required');
  });
});
