import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bodyText } from '../../../test/helpers/body-text.js';
import {
  FAKE_CACHED_TOKENS,
  FAKE_GEMINI_KEY,
  FAKE_THOUGHT,
  startFakeGeminiUpstream,
  type FakeGeminiUpstream,
} from '../../../test/fakes/fake-gemini-upstream.js';
import type { ChatEvent, ChatRequest } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { geminiDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

const provider = await createProvider(geminiDescriptor);
const chat = provider.chat!;

let upstream: FakeGeminiUpstream;

beforeAll(async () => {
  upstream = await startFakeGeminiUpstream();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.requests.length = 0;
});

function attempt(upstreamModel = 'gemini-2.5-flash', channel: Partial<ChannelConfig> = {}): Attempt {
  return {
    channel: { name: 'gemini-test', provider: 'gemini', baseUrl: upstream.url, apiKey: FAKE_GEMINI_KEY, headers: {}, timeoutMs: 5000, options: {}, ...channel },
    upstreamModel,
    signal: new AbortController().signal,
    requestId: 'req-1',
  };
}

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'textmodel-c-2.5-flash',
  stream: false,
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});

const weatherTool = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function caught(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('the fake Gemini upstream speaks the wire format', () => {
  it('satisfies the official SDK, streaming included', async () => {
    const client = new GoogleGenAI({ apiKey: FAKE_GEMINI_KEY, httpOptions: { baseUrl: upstream.url } });
    const response = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hello fake' });
    expect(response.text).toBe('Fake Gemini says: Hello fake');
    let text = '';
    for await (const chunk of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'one two three four five' })) {
      text += chunk.text ?? '';
    }
    expect(text).toBe('Fake Gemini says: one two three four five');
    expect(upstream.requests[0].headers['x-goog-api-key']).toBe(FAKE_GEMINI_KEY);
  });
});

describe('gemini provider: chat', () => {
  it('sends the translated request with the key in a header, not the URL', async () => {
    const response = await chat.chat(ask('Hello there', { system: [{ type: 'text', text: 'Be kind.' }], temperature: 0.3 }), attempt());
    const [recorded] = upstream.requests;
    expect(recorded.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(recorded.query).toEqual({});
    expect(recorded.headers['x-goog-api-key']).toBe(FAKE_GEMINI_KEY);
    expect(recorded.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }],
      systemInstruction: { parts: [{ text: 'Be kind.' }] },
      generationConfig: { temperature: 0.3 },
    });
    expect(response).toMatchObject({
      id: expect.stringMatching(/^fake-response-\d+$/),
      model: 'gemini-2.5-flash',
      content: [{ type: 'text', text: 'Fake Gemini says: Hello there' }],
      finishReason: 'stop',
      // Prompt: "Hello there" + "Be kind." = 4 words; answer: 5 words.
      usage: { inputTokens: 4, outputTokens: 5 },
    });
  });

  it('runs a whole function-calling round trip', async () => {
    const first = await chat.chat(ask('Weather in Paris?', { tools: [weatherTool], toolChoice: { type: 'required' } }), attempt());
    expect(first.finishReason).toBe('tool_calls');
    expect(first.content).toEqual([{ type: 'tool_call', id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"example"}' }]);
    const call = first.content[0];
    if (call.type !== 'tool_call') throw new Error('expected a tool call');

    const second = await chat.chat(
      {
        ...ask('Weather in Paris?', { tools: [weatherTool] }),
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
          { role: 'assistant', content: [call] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, content: '{"temp":21}' }] },
        ],
      },
      attempt(),
    );
    expect(second.finishReason).toBe('stop');
    expect(second.content).toEqual([{ type: 'text', text: 'The function get_weather returned {"temp":21}.' }]);
    expect((upstream.requests[1].body as { contents: unknown[] }).contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { temp: 21 } } }],
    });
  });

  it('reads thoughts and reasoning tokens when a thinking budget is given', async () => {
    const response = await chat.chat(ask('Think about it', { thinkingBudget: 512 }), attempt());
    expect(response.content[0]).toEqual({ type: 'thinking', text: FAKE_THOUGHT });
    expect(response.usage.reasoningTokens).toBe(5);
    expect(response.usage.outputTokens).toBe(response.usage.reasoningTokens! + 6);
  });

  it('maps MAX_TOKENS to length', async () => {
    const response = await chat.chat(ask('a b c d e f', { maxTokens: 2 }), attempt());
    expect(response.finishReason).toBe('length');
    expect(response.content).toEqual([{ type: 'text', text: 'Fake Gemini' }]);
  });

  it('uses the channel apiVersion', async () => {
    await chat.chat(ask('v1 please'), attempt('gemini-2.5-flash', { options: { apiVersion: 'v1' } }));
    expect(upstream.requests[0].path).toBe('/v1/models/gemini-2.5-flash:generateContent');
  });
});

describe('gemini provider: chatStream', () => {
  it('streams text deltas and finishes with the usage of the last chunk', async () => {
    const events = await collect(await chat.chatStream(ask('one two three four', { stream: true }), attempt()));
    expect(upstream.requests[0].path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(upstream.requests[0].query).toEqual({ alt: 'sse' });
    expect(events).toEqual([
      { type: 'start', id: expect.stringMatching(/^fake-response-\d+$/), model: 'gemini-2.5-flash', created: expect.any(Number) },
      { type: 'text_delta', text: 'Fake Gemini says:' },
      { type: 'text_delta', text: ' one two three' },
      { type: 'text_delta', text: ' four' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 4, outputTokens: 7 } },
    ]);
  });

  it('streams a function call as one complete delta', async () => {
    const events = await collect(await chat.chatStream(ask('Weather?', { stream: true, tools: [weatherTool] }), attempt()));
    expect(events.slice(1)).toEqual([
      { type: 'tool_call_start', index: 0, id: expect.stringMatching(/^call_/), name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":"example"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: expect.objectContaining({ outputTokens: 2 }) },
    ]);
  });

  it('ends with an error event when the upstream fails mid-stream', async () => {
    const events = await collect(await chat.chatStream(ask('hello', { stream: true }), attempt('midstream-error')));
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'error']);
  });
});

describe('gemini provider: passthrough', () => {
  const clientBody = {
    contents: [{ role: 'user', parts: [{ text: 'Cached question' }] }],
    cached_content: 'cachedContents/abc',
    safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
  };

  it('relays a JSON answer untouched and reads its usage, cache reads included', async () => {
    const response = await chat.passthrough!({ dialect: 'gemini', body: clientBody, stream: false }, attempt());
    expect(upstream.requests[0].body).toEqual(clientBody);
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'application/json; charset=UTF-8', 'content-length': expect.stringMatching(/^\d+$/) });
    const text = await bodyText(response.body);
    expect(JSON.parse(text).candidates[0].content.parts[0].text).toBe('Fake Gemini says: Cached question');
    // Prompt: 2 words + the cached tokens; answer: 5 words.
    expect((await response.usage).usage).toEqual({ inputTokens: 2 + FAKE_CACHED_TOKENS, outputTokens: 5, cacheReadTokens: FAKE_CACHED_TOKENS });
  });

  it('names the public model in modelVersion, in JSON (resized) and in every SSE chunk', async () => {
    const json = await chat.passthrough!({ dialect: 'gemini', body: clientBody, stream: false, model: 'textmodel-c-2.5-flash' }, attempt());
    const text = await bodyText(json.body);
    expect(JSON.parse(text).modelVersion).toBe('textmodel-c-2.5-flash');
    expect(Buffer.byteLength(text)).toBe(Number(json.headers['content-length']));
    const sse = await chat.passthrough!({ dialect: 'gemini', body: clientBody, stream: true, model: 'textmodel-c-2.5-flash' }, attempt());
    const sseText = await bodyText(sse.body);
    const frames = sseText.split('\r\n\r\n').filter((f) => f.length > 0);
    expect(frames.map((f) => JSON.parse(f.slice('data: '.length)).modelVersion)).toEqual(['textmodel-c-2.5-flash', 'textmodel-c-2.5-flash']);
    expect(await sse.usage).toMatchObject({ completed: true, producedText: 'Fake Gemini says: Cached question' });
  });

  it('relays SSE bytes untouched and takes the usage of the last chunk carrying it', async () => {
    const response = await chat.passthrough!({ dialect: 'gemini', body: clientBody, stream: true }, attempt());
    expect(upstream.requests[0].query).toEqual({ alt: 'sse' });
    expect(response.headers['content-type']).toBe('text/event-stream');
    const text = await bodyText(response.body);
    const frames = text.split('\r\n\r\n').filter((f) => f.length > 0);
    expect(frames.every((f) => f.startsWith('data: {'))).toBe(true);
    expect(frames).toHaveLength(2);
    expect((await response.usage).usage).toEqual({ inputTokens: 2 + FAKE_CACHED_TOKENS, outputTokens: 5, cacheReadTokens: FAKE_CACHED_TOKENS });
  });

  it('rewrites a model named in the body', async () => {
    await chat.passthrough!({ dialect: 'gemini', body: { model: 'models/textmodel-c-2.5-flash', contents: clientBody.contents }, stream: false }, attempt());
    expect((upstream.requests[0].body as { model: string }).model).toBe('models/gemini-2.5-flash');
  });

  it('throws the upstream error instead of relaying it', async () => {
    const error = await caught(chat.passthrough!({ dialect: 'gemini', body: { contents: [], bogus: 1 }, stream: false }, attempt()));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe('gemini upstream: Invalid JSON payload received. Unknown name "bogus": Cannot find field.');
  });
});

describe('gemini provider: errors', () => {
  it.each([
    ['fail-400', 'invalid_request', false],
    ['fail-404', 'not_found', false],
    ['fail-429', 'rate_limit', true],
    ['fail-500', 'upstream', true],
    ['fail-503', 'overloaded', true],
  ])('%s → %s (retryable: %s)', async (model, kind, retryable) => {
    const error = await caught(chat.chat(ask('x'), attempt(model)));
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
  });

  it('passes the 429 retry delay on', async () => {
    expect((await caught(chat.chat(ask('x'), attempt('fail-429')))).retryAfter).toBe(7);
  });

  it('fails a stream before its first byte, so it can be retried elsewhere', async () => {
    const error = await caught(chat.chatStream(ask('x', { stream: true }), attempt('fail-503')));
    expect(error.kind).toBe('overloaded');
  });

  it('treats a wrong channel key as a refused credential, not a client error', async () => {
    const error = await caught(chat.chat(ask('x'), attempt('gemini-2.5-flash', { apiKey: 'wrong' })));
    expect(error.kind).toBe('upstream');
    expect(error.retryable).toBe(true);
    expect(error.upstreamStatus).toBe(400);
  });

  it('turns an unreachable upstream into a retryable error', async () => {
    const error = await caught(chat.chat(ask('x'), attempt('gemini-2.5-flash', { baseUrl: 'http://127.0.0.1:1' })));
    expect(error.code).toBe('upstream_unreachable');
    expect(error.retryable).toBe(true);
  });
});
