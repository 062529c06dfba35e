/**
 * The Gemini surface in a bare Fastify app with stub gateway services, driven by the
 * official `@google/genai` SDK and by raw HTTP. Canonical answers are scripted by the stub;
 * the model `textmodel-c-passthrough` goes through the real Gemini provider to the fake
 * upstream, as the engine's pass-through would.
 */
import { ApiError, GoogleGenAI, Type, type GenerateContentResponse, type Tool } from '@google/genai';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_GEMINI_KEY, startFakeGeminiUpstream, type FakeGeminiUpstream } from '../../../test/fakes/fake-gemini-upstream.js';
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { geminiDescriptor } from '../../providers/gemini/index.js';
import { createProvider } from '../../providers/create-provider.js';
import type { TapResult } from '../../core/passthrough.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { ModelInfo } from '../../core/model-info.js';
import type { RouteInfo } from '../../core/route.js';
import type { ChatCall, ChatOutcome, GatewayServices } from '../../gateway/contract.js';
import { geminiSurface } from './index.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';

const CLIENT_KEY = 'gg-client-key';
const route: RouteInfo = { channel: 'stub', provider: 'sandbox', simulated: true, upstreamModel: 'stub-model', attempts: 1, passthrough: false };
const models: ModelInfo[] = [
  {
    id: 'textmodel-c-2.5-flash',
    operation: 'chat',
    ownedBy: 'google',
    created: 1_700_000_000,
    displayName: 'C 2.5 Flash',
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
  },
  { id: 'textmodel-c-passthrough', operation: 'chat', ownedBy: 'google', created: 1_700_000_000, displayName: 'C passthrough' },
  { id: 'imagegen1-pro', operation: 'image.generate', ownedBy: 'gengate', created: 1_700_000_000, displayName: 'Image' },
];

let upstream: FakeGeminiUpstream;
let app: FastifyInstance;
let baseUrl: string;
const calls: ChatCall[] = [];
const passthroughUsage: Array<Promise<TapResult>> = [];
const provider = await createProvider(geminiDescriptor);

function lastUserText(request: ChatRequest): string {
  const last = request.messages[request.messages.length - 1];
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

async function* scripted(events: ChatEvent[]): AsyncGenerator<ChatEvent> {
  for (const event of events) yield event;
}

function answer(request: ChatRequest): { content: ChatResponse['content']; finishReason: ChatResponse['finishReason'] } {
  if (request.tools?.length && request.messages[request.messages.length - 1].role !== 'tool') {
    return { content: [{ type: 'tool_call', id: 'call_w1', name: request.tools[0].name, arguments: '{"city":"Paris"}' }], finishReason: 'tool_calls' };
  }
  return { content: [{ type: 'text', text: `You said: ${lastUserText(request)}` }], finishReason: 'stop' };
}

const services: GatewayServices = {
  ...unusedServices,
  async authenticate(presented) {
    if (presented !== CLIENT_KEY) throw new GatewayError('authentication', 'invalid API key', { code: 'invalid_api_key' });
    return { id: 'k1', name: 'test', models: null, isMaster: false, accountId: null } satisfies AuthenticatedKey;
  },
  listModels: () => models,
  async chat(call): Promise<ChatOutcome> {
    calls.push(call);
    const request = call.canonical();
    if (request.model === 'textmodel-c-passthrough' && call.raw) {
      const attempt = {
        channel: { name: 'fake', provider: 'gemini' as const, baseUrl: upstream.url, apiKey: FAKE_GEMINI_KEY, headers: {}, timeoutMs: 5000, options: {} },
        upstreamModel: 'gemini-2.5-flash',
        signal: call.signal,
        requestId: call.requestId,
      };
      const response = await provider.chat!.passthrough!(call.raw, attempt);
      passthroughUsage.push(response.usage);
      return { kind: 'passthrough', response, route: { ...route, provider: 'gemini', simulated: false } };
    }
    if (request.model === 'textmodel-c-fails-midway') {
      return {
        kind: 'stream',
        route,
        events: scripted([
          { type: 'start', id: 'resp-x', model: request.model, created: 1_700_000_000 },
          { type: 'text_delta', text: 'Partial' },
          { type: 'error', error: new GatewayError('overloaded', 'upstream overloaded') },
        ]),
      };
    }
    const { content, finishReason } = answer(request);
    const usage = { inputTokens: 11, outputTokens: 7 };
    if (!request.stream) {
      return { kind: 'response', route, response: { id: 'resp-1', model: request.model, created: 1_700_000_000, content, finishReason, usage } };
    }
    const events: ChatEvent[] = [{ type: 'start', id: 'resp-2', model: request.model, created: 1_700_000_000 }];
    content.forEach((part, index) => {
      if (part.type === 'text') for (const word of part.text.split(/(?= )/)) events.push({ type: 'text_delta', text: word });
      if (part.type === 'tool_call') {
        events.push({ type: 'tool_call_start', index, id: part.id, name: part.name });
        events.push({ type: 'tool_call_delta', index, argumentsDelta: part.arguments.slice(0, 5) });
        events.push({ type: 'tool_call_delta', index, argumentsDelta: part.arguments.slice(5) });
      }
    });
    events.push({ type: 'finish', finishReason, usage });
    return { kind: 'stream', route, events: scripted(events) };
  },
};

beforeAll(async () => {
  upstream = await startFakeGeminiUpstream();
  app = Fastify();
  await geminiSurface.register(app, services);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});
beforeEach(() => {
  calls.length = 0;
  passthroughUsage.length = 0;
});

const client = (apiVersion?: string): GoogleGenAI => new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: apiVersion ? { baseUrl, apiVersion } : { baseUrl } });

const weatherTool: Tool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
    },
  ],
};

describe('gemini surface through @google/genai', () => {
  it('models.generateContent under /v1beta', async () => {
    const response = await client().models.generateContent({
      model: 'textmodel-c-2.5-flash',
      contents: 'Hello gateway',
      config: { systemInstruction: 'Be brief.', temperature: 0.4, maxOutputTokens: 100 },
    });
    expect(response.text).toBe('You said: Hello gateway');
    expect(response.candidates?.[0].finishReason).toBe('STOP');
    expect(response.usageMetadata).toEqual({ promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 });
    expect(response.modelVersion).toBe('textmodel-c-2.5-flash');
    expect(response.responseId).toBe('resp-1');

    const [call] = calls;
    expect(call.surface).toBe('gemini');
    expect(call.key.id).toBe('k1');
    expect(call.canonical()).toEqual({
      model: 'textmodel-c-2.5-flash',
      stream: false,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello gateway' }] }],
      temperature: 0.4,
      maxTokens: 100,
    });
    expect(call.raw?.dialect).toBe('gemini');
    expect(call.raw?.stream).toBe(false);
    expect(call.raw?.body).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'Hello gateway' }] }] });
  });

  it('models.generateContentStream streams text and ends with finishReason and usage', async () => {
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await client().models.generateContentStream({ model: 'textmodel-c-2.5-flash', contents: 'stream me' })) chunks.push(chunk);
    expect(chunks.map((c) => c.text ?? '').join('')).toBe('You said: stream me');
    const last = chunks[chunks.length - 1];
    expect(last.candidates?.[0].finishReason).toBe('STOP');
    expect(last.usageMetadata).toEqual({ promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 });
    expect(calls[0].raw?.stream).toBe(true);
  });

  it('streams a function call as one part with complete args (response.functionCalls)', async () => {
    const chunks: GenerateContentResponse[] = [];
    const stream = await client().models.generateContentStream({
      model: 'textmodel-c-2.5-flash',
      contents: 'Weather in Paris?',
      config: { tools: [weatherTool] },
    });
    for await (const chunk of stream) chunks.push(chunk);
    const withCalls = chunks.filter((c) => c.functionCalls !== undefined);
    expect(withCalls).toHaveLength(1);
    expect(withCalls[0].functionCalls).toEqual([{ id: 'call_w1', name: 'get_weather', args: { city: 'Paris' } }]);
    expect(withCalls[0].candidates?.[0].finishReason).toBe('STOP');
    expect(calls[0].canonical().tools).toEqual([
      { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ]);
  });

  it('sends the function response back, matched to the call id', async () => {
    const response = await client().models.generateContent({
      model: 'textmodel-c-2.5-flash',
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { id: 'call_w1', name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_w1', name: 'get_weather', response: { temp: 21 } } }] },
      ],
      config: { tools: [weatherTool] },
    });
    expect(response.text).toBe('You said: ');
    expect(calls[0].canonical().messages[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: 'call_w1', name: 'get_weather', content: '{"temp":21}' }],
    });
  });

  it('serves the SDK configured for apiVersion v1', async () => {
    const response = await client('v1').models.generateContent({ model: 'textmodel-c-2.5-flash', contents: 'on v1' });
    expect(response.text).toBe('You said: on v1');
  });

  it('relays a same-dialect pass-through untouched, streaming included', async () => {
    const response = await client().models.generateContent({ model: 'textmodel-c-passthrough', contents: 'through the gateway' });
    expect(response.text).toBe('Fake Gemini says: through the gateway');
    // The relay policy: the answer names the public model id, not the upstream's.
    expect(response.modelVersion).toBe('textmodel-c-passthrough');
    expect(upstream.requests.at(-1)?.headers['x-goog-api-key']).toBe(FAKE_GEMINI_KEY);

    let text = '';
    for await (const chunk of await client().models.generateContentStream({ model: 'textmodel-c-passthrough', contents: 'a b c d' })) text += chunk.text ?? '';
    expect(text).toBe('Fake Gemini says: a b c d');
    expect((await passthroughUsage[1]).usage).toEqual({ inputTokens: 4, outputTokens: 7 });
  });

  it('countTokens, models.get and models.list', async () => {
    const counted = await client().models.countTokens({ model: 'textmodel-c-2.5-flash', contents: 'count these words' });
    expect(counted.totalTokens).toBeGreaterThan(0);

    const model = await client().models.get({ model: 'textmodel-c-2.5-flash' });
    expect(model.name).toBe('models/textmodel-c-2.5-flash');
    expect(model.inputTokenLimit).toBe(1_048_576);

    const names: string[] = [];
    for await (const m of await client().models.list()) names.push(m.name ?? '');
    expect(names).toEqual(['models/textmodel-c-2.5-flash', 'models/textmodel-c-passthrough']);
  });

  it('rejects a wrong key as Google does: 400 INVALID_ARGUMENT, reason API_KEY_INVALID', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'nope', httpOptions: { baseUrl } });
    const error = await wrong.models.generateContent({ model: 'textmodel-c-2.5-flash', contents: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.parse((error as ApiError).message)).toMatchObject({
      error: { code: 400, message: 'invalid API key', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID', domain: 'googleapis.com' }, {}] },
    });
  });

  it('surfaces a mid-stream failure as the SDK’s ApiError', async () => {
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of await client().models.generateContentStream({ model: 'textmodel-c-fails-midway', contents: 'x' }))
        received.push(chunk.text ?? '');
    })().catch((e: unknown) => e);
    expect(received).toEqual(['Partial']);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
  });
});

describe('gemini surface over raw HTTP', () => {
  it('takes the key from ?key= and snake_case inline_data', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:generateContent?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        contents: [{ parts: [{ text: 'Summarise this' }, { inline_data: { mime_type: 'application/pdf', data: 'JVBERi0xLjQ=' } }] }],
        generation_config: { max_output_tokens: 64 },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-gengate-provider')).toBe('sandbox');
    expect(res.headers.get('x-gengate-simulated')).toBe('true');
    expect(await res.json()).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'You said: Summarise this' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 11, candidatesTokenCount: 7, totalTokenCount: 18 },
      modelVersion: 'textmodel-c-2.5-flash',
      responseId: 'resp-1',
    });
    expect(calls[0].canonical().messages[0].content[1]).toEqual({
      type: 'document',
      source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQ=' },
    });
    expect(calls[0].canonical().maxTokens).toBe(64);
  });

  it('answers a bad field with a 400 in Gemini shape naming it', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': CLIENT_KEY },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png' } }] }] }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string; status: string } };
    expect(body.error.code).toBe(400);
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toBe('contents[0].parts[0].inlineData.data: is required');
    // Refused by the canonical parse the gateway runs for a translating channel.
    expect(calls).toHaveLength(1);
  });

  it('answers malformed JSON with a 400 in Gemini shape', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${CLIENT_KEY}` },
      body: '{"contents": [',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });

  it('answers an unknown action with 404 NOT_FOUND', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:summonDragons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': CLIENT_KEY },
      body: '{}',
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 404, message: 'textmodel-c-2.5-flash:summonDragons is not a supported method of the v1beta API', status: 'NOT_FOUND' },
    });
  });

  it('streams a JSON array without alt=sse, translated rather than passed through', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:streamGenerateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': CLIENT_KEY },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'array please' }] }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const items = (await res.json()) as GenerateContentResponse[];
    expect(items.map((i) => i.candidates?.[0].content?.parts?.[0].text).join('')).toBe('You said: array please');
    expect(items[items.length - 1].candidates?.[0].finishReason).toBe('STOP');
    expect(calls[0].raw).toBeUndefined();
  });

  it('ends an SSE stream that fails midway with an error frame', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/textmodel-c-fails-midway:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': CLIENT_KEY },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames = (await res.text()).split('\n\n').filter((f) => f.length > 0);
    expect(frames[frames.length - 1]).toBe('data: {"error":{"code":503,"message":"upstream overloaded","status":"UNAVAILABLE"}}');
  });

  it('counts tokens of a generateContentRequest and names its bad fields', async () => {
    const ok = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:countTokens?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ generate_content_request: { contents: [{ parts: [{ text: 'hello' }] }] } }),
    });
    expect(await ok.json()).toEqual({ totalTokens: 1 });
    const bad = await fetch(`${baseUrl}/v1beta/models/textmodel-c-2.5-flash:countTokens?key=${CLIENT_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ generateContentRequest: { contents: [{ role: 'robot', parts: [{ text: 'x' }] }] } }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'generateContentRequest.contents[0].role: must be "user" or "model", got "robot"',
    );
  });

  it('answers models.get for an unknown model with 404', async () => {
    const res = await fetch(`${baseUrl}/v1beta/models/imagegen1-pro?key=${CLIENT_KEY}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });
});
