import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIProducedText } from './openai-passthrough.js';
import { fakeOpenAIChannel, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from '../../../test/fakes/fake-openai-upstream.js';
import type { ChatEvent, ChatRequest } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { createProvider } from '../create-provider.js';
import { openaiCompatibleDescriptor, openaiDescriptor } from './index.js';

const openai = createProvider(openaiDescriptor);
const compatible = createProvider(openaiCompatibleDescriptor);

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'textmodel-b-4o-mini',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
  ...extra,
});

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'boolean' } }, required: ['city'] },
};

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function readAll(body: Readable | Buffer): Promise<string> {
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  let text = '';
  for await (const chunk of body) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return text;
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('openai provider against the fake upstream', () => {
  let upstream: FakeOpenAIUpstream;
  let keyless: FakeOpenAIUpstream;
  let channel: ChannelConfig;
  const attempt = (overrides: Partial<Attempt> = {}, channelOverrides: Partial<ChannelConfig> = {}): Attempt => ({
    channel: { ...channel, ...channelOverrides },
    upstreamModel: 'gpt-4o-mini',
    signal: new AbortController().signal,
    requestId: 'req-test',
    ...overrides,
  });
  const lastSent = () => upstream.requests.at(-1)!;

  beforeAll(async () => {
    upstream = await startFakeOpenAIUpstream();
    keyless = await startFakeOpenAIUpstream({ apiKey: null });
    channel = fakeOpenAIChannel(upstream);
  });
  afterAll(async () => {
    await upstream.close();
    await keyless.close();
  });

  it('declares the chat operation and the openai dialect', () => {
    expect(openai.name).toBe('openai');
    expect(openai.dialect).toBe('openai');
    expect([...openai.operations]).toEqual(expect.arrayContaining(['chat', 'embed']));
    expect(typeof openai.embed?.embed).toBe('function');
    expect(typeof openai.chat?.passthrough).toBe('function');
    expect(compatible.name).toBe('openai-compatible');
  });

  it('chat: sends the upstream model, bearer key and max_completion_tokens, and maps the answer', async () => {
    const response = await openai.chat!.chat(
      ask('hello world', { maxTokens: 50, system: [{ type: 'text', text: 'Be nice.' }] }),
      attempt({}, { headers: { 'OpenAI-Organization': 'org-1' } }),
    );
    expect(lastSent().path).toBe('/v1/chat/completions');
    expect(lastSent().headers.authorization).toBe('Bearer sk-fake-openai-upstream');
    expect(lastSent().headers['openai-organization']).toBe('org-1');
    expect(lastSent().body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'hello world' },
      ],
      max_completion_tokens: 50,
    });
    expect(response).toEqual({
      id: expect.stringMatching(/^chatcmpl-fake\d+$/),
      model: 'gpt-4o-mini',
      created: 1_700_000_000,
      content: [{ type: 'text', text: 'You said: hello world' }],
      finishReason: 'stop',
      // prompt: (4 + 2) + (4 + 2) words; completion: "You said: hello world" = 4 words
      usage: { inputTokens: 12, outputTokens: 4 },
    });
  });

  it('chat: openai-compatible sends max_tokens, and no Authorization to a keyless server', async () => {
    const response = await compatible.chat!.chat(
      ask('one two three four five', { maxTokens: 3 }),
      attempt({ upstreamModel: 'llama3.1:8b' }, { baseUrl: keyless.url, apiKey: '', provider: 'openai-compatible' }),
    );
    const sent = keyless.requests.at(-1)!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: 'llama3.1:8b', messages: [{ role: 'user', content: 'one two three four five' }], max_tokens: 3 });
    expect(response.content).toEqual([{ type: 'text', text: 'You said: one' }]);
    expect(response.finishReason).toBe('length');
  });

  it('chat: returns a forced tool call', async () => {
    const response = await openai.chat!.chat(
      ask('weather in Oslo?', {
        tools: [{ name: 'noop', parameters: { type: 'object', properties: {} } }, weatherTool],
        toolChoice: { type: 'tool', name: 'get_weather' },
      }),
      attempt(),
    );
    expect(lastSent().body?.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    expect(response.content).toEqual([
      { type: 'tool_call', id: expect.stringMatching(/^call_fake\d+_0$/), name: 'get_weather', arguments: '{"city":"fake-city","celsius":true}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  it('chatStream: decodes text and the usage chunk it asked for', async () => {
    const events = await collect(await openai.chat!.chatStream(ask('stream me please', { stream: true }), attempt()));
    expect(lastSent().body?.stream).toBe(true);
    expect(lastSent().body?.stream_options).toEqual({ include_usage: true });
    expect(events[0]).toEqual({ type: 'start', id: expect.stringMatching(/^chatcmpl-fake\d+$/), model: 'gpt-4o-mini', created: 1_700_000_000 });
    const text = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('');
    expect(text).toBe('You said: stream me please');
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 7, outputTokens: 5 } });
  });

  it('chatStream: reassembles two streamed tool calls', async () => {
    const events = await collect(
      await openai.chat!.chatStream(
        ask('weather and time?', {
          stream: true,
          tools: [weatherTool, { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string', enum: ['UTC', 'CET'] } } } }],
        }),
        attempt({}, { headers: { 'x-fake-scenario': 'parallel-tools' } }),
      ),
    );
    const starts = events.filter((e) => e.type === 'tool_call_start');
    expect(starts).toEqual([
      { type: 'tool_call_start', index: 0, id: expect.stringMatching(/_0$/), name: 'get_weather' },
      { type: 'tool_call_start', index: 1, id: expect.stringMatching(/_1$/), name: 'get_time' },
    ]);
    const args = (index: number) => events.flatMap((e) => (e.type === 'tool_call_delta' && e.index === index ? [e.argumentsDelta] : [])).join('');
    expect(args(0)).toBe('{"city":"fake-city","celsius":true}');
    expect(args(1)).toBe('{"zone":"UTC"}');
    expect(events.filter((e) => e.type === 'tool_call_delta' && e.index === 0).length).toBeGreaterThan(1);
    expect(events.at(-1)?.type === 'finish' && events.at(-1)).toMatchObject({ finishReason: 'tool_calls' });
  });

  it('fits the request to OpenAI before sending: output cap, user, MCP tool names, which come back as the client sent them', async () => {
    const mcp = `mcp__workspace__${'search_the_entire_repository_'.repeat(3)}`;
    const warnings: string[] = [];
    const request = ask('go', { maxTokens: 32_000, user: 'x'.repeat(150), tools: [{ ...weatherTool, name: mcp }], toolChoice: { type: 'tool', name: mcp } });
    const fitted = attempt({ maxOutputTokens: 16_384, warn: (message) => warnings.push(message) });
    const response = await openai.chat!.chat(request, fitted);
    const body = lastSent().body as { max_completion_tokens: number; user: string; tools: Array<{ function: { name: string } }>; tool_choice: unknown };
    expect(body.max_completion_tokens).toBe(16_384);
    expect(body.user).toHaveLength(45);
    const sentName = body.tools[0].function.name;
    expect(sentName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: sentName } });
    expect(response.content[0]).toMatchObject({ type: 'tool_call', name: mcp });
    const streamed = await collect(await openai.chat!.chatStream({ ...request, stream: true }, fitted));
    expect(streamed.find((e) => e.type === 'tool_call_start')).toMatchObject({ name: mcp });
    expect(warnings.filter((w) => w.startsWith('max_tokens:'))).toHaveLength(2);
  });

  it('chatStream: sends no stream_options when the channel turns streamUsage off', async () => {
    const events = await collect(await openai.chat!.chatStream(ask('hi', { stream: true }), attempt({}, { options: { streamUsage: false } })));
    expect(lastSent().body?.stream_options).toBeUndefined();
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } });
  });

  it('chatStream: a mid-stream error chunk becomes an error event', async () => {
    upstream.setNext('mid-stream-error');
    const events = await collect(await openai.chat!.chatStream(ask('a b c', { stream: true }), attempt()));
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    if (last.type === 'error')
      expect(last.error.message).toBe('upstream stream failed: The server had an error while processing your request. Sorry about that!');
  });

  it('chatStream: a failure before the first byte throws, so another channel can be tried', async () => {
    const error = await failure(openai.chat!.chatStream(ask('hi', { stream: true }), attempt({ upstreamModel: 'fail-500' })));
    expect(error.kind).toBe('upstream');
    expect(error.retryable).toBe(true);
    expect(error.upstreamStatus).toBe(500);
  });

  it('passthrough (JSON): rewrites only the model, relays the answer naming the public model, sized, and reads usage', async () => {
    const body = { model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'relay this' }], temperature: 0.1, logit_bias: { '42': 1 } };
    const response = await openai.chat!.passthrough!({ dialect: 'openai', body, stream: false }, attempt());
    expect(lastSent().body).toEqual({ ...body, model: 'gpt-4o-mini' });
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'content-length': expect.stringMatching(/^\d+$/) });
    expect(response.upstreamRequestId).toMatch(/^req_fake\d+$/);
    const text = await readAll(response.body);
    expect(Buffer.byteLength(text)).toBe(Number(response.headers['content-length']));
    const relayed = JSON.parse(text) as { model: string; choices: Array<{ message: { content: string } }> };
    expect(relayed.model).toBe('textmodel-b-4o-mini');
    expect(relayed.choices[0].message.content).toBe('You said: relay this');
    expect(await response.usage).toEqual({ usage: { inputTokens: 6, outputTokens: 4 }, completed: true, producedText: '' });
  });

  it('passthrough (JSON): with publicModel off, relays the upstream bytes as they were', async () => {
    const body = { model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'as is' }] };
    const response = await openai.chat!.passthrough!({ dialect: 'openai', body, stream: false, publicModel: false }, attempt());
    const text = await readAll(response.body);
    expect((JSON.parse(text) as { model: string }).model).toBe('gpt-4o-mini');
    expect(Buffer.byteLength(text)).toBe(Number(response.headers['content-length']));
  });

  it('passthrough (stream): injects include_usage, meters it, and relays chunks as if it had not', async () => {
    const body = { model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'count my tokens' }], stream: true };
    const response = await openai.chat!.passthrough!({ dialect: 'openai', body, stream: true }, attempt());
    expect(lastSent().body).toEqual({ ...body, model: 'gpt-4o-mini', stream_options: { include_usage: true } });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const text = await readAll(response.body);
    expect(text).not.toContain('"usage"');
    const data = text.split('\n\n').filter((frame) => frame.length > 0);
    expect(data.at(-1)).toBe('data: [DONE]');
    const chunks = data
      .slice(0, -1)
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as { model: string; choices: Array<{ finish_reason: string | null }> });
    expect(chunks.every((chunk) => chunk.choices.length === 1 && chunk.model === 'textmodel-b-4o-mini')).toBe(true);
    expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
    expect(await response.usage).toEqual({ usage: { inputTokens: 7, outputTokens: 5 }, completed: true, producedText: '' });
  });

  it('passthrough (stream): keeps the usage chunk the client asked for', async () => {
    const body = { model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } };
    const response = await openai.chat!.passthrough!({ dialect: 'openai', body, stream: true }, attempt());
    expect(lastSent().body).toEqual({ ...body, model: 'gpt-4o-mini' });
    const text = await readAll(response.body);
    expect(text).toContain('"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8');
    expect(text).toContain('"usage":null');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect((await response.usage).usage).toEqual({ inputTokens: 5, outputTokens: 3 });
  });

  it('passthrough (stream): the produced text of a chunk is its content and tool-call arguments (read when a stream is cut)', () => {
    const seen: string[] = [];
    const emit = (text: string) => seen.push(text);
    openAIProducedText({ data: '{"id":"c","choices":[{"index":0,"delta":{"content":"Hel\\"lo"}}]}' }, emit);
    openAIProducedText({ data: '{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}}]}}]}' }, emit);
    openAIProducedText({ data: '{"choices":[{"delta":{"role":"assistant"}}],"usage":null}' }, emit);
    expect(seen).toEqual(['Hel"lo', '{"city":']);
  });

  it('passthrough: throws for a non-2xx answer like chat', async () => {
    const error = await failure(
      openai.chat!.passthrough!(
        { dialect: 'openai', body: { model: 'x', messages: [{ role: 'user', content: 'hi' }] }, stream: false },
        attempt({ upstreamModel: 'fail-400' }),
      ),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.retryable).toBe(false);
  });

  it.each([
    ['a refused channel key (401)', { apiKey: 'sk-wrong' }, 'gpt-4o-mini', 'upstream', 502, true],
    ['a rate limit (429)', {}, 'fail-429', 'rate_limit', 429, true],
    ['an exhausted quota (429)', {}, 'fail-quota', 'rate_limit', 429, true],
    ['a bad request (400)', {}, 'fail-400', 'invalid_request', 400, false],
    ['an unknown model (404)', {}, 'fail-404', 'not_found', 404, false],
    ['a server error (500)', {}, 'fail-500', 'upstream', 502, true],
    ['an overload (503)', {}, 'fail-503', 'overloaded', 503, true],
    ['an HTML 502 page', {}, 'fail-html-502', 'upstream', 502, true],
  ] as const)('maps %s', async (_label, channelOverrides, model, kind, status, retryable) => {
    const error = await failure(openai.chat!.chat(ask('hi'), attempt({ upstreamModel: model }, channelOverrides)));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
  });

  it('keeps the upstream message and retry-after of a 429', async () => {
    const error = await failure(openai.chat!.chat(ask('hi'), attempt({ upstreamModel: 'fail-429' })));
    expect(error.message).toBe('Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.');
    expect(error.retryAfter).toBe(2);
    expect(error.code).toBe('rate_limit_exceeded');
  });

  it('reports an unreachable upstream as retryable', async () => {
    const error = await failure(openai.chat!.chat(ask('hi'), attempt({}, { baseUrl: 'http://127.0.0.1:1/v1' })));
    expect(error.kind).toBe('upstream');
    expect(error.retryable).toBe(true);
  });
});
