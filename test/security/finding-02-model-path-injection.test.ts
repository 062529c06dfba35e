/**
 * Issue 23, finding 2: model names went unescaped into the Gemini upstream's URL path, so a key
 * limited to `textmodel-c-2.5-flash*` reached `gemini-2.5-pro` (or other API methods, with the
 * operator's key) through `textmodel-c-2.5-flash/../gemini-2.5-pro`. A real gateway in front of
 * the fake Gemini and Replicate upstreams: every path-like spelling is the client's 400 in the
 * surface's own shape, and the upstream never receives a request for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_GEMINI_KEY, type FakeGeminiUpstream, startFakeGeminiUpstream } from '../fakes/fake-gemini-upstream.js';
import { FAKE_REPLICATE_TOKEN, type FakeReplicateUpstream, startFakeReplicateUpstream } from '../fakes/fake-replicate-upstream.js';
import { geminiUpChannel } from '../helpers/fake-channels.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

/** Ids that pass the key's `textmodel-c-2.5-flash*` scope by their spelling and name another path. */
const TRAVERSALS = [
  'textmodel-c-2.5-flash/../gemini-2.5-pro',
  'textmodel-c-x/../../../v1beta/cachedContents?',
  'textmodel-c-2.5-flash%2F..%2Fgemini-2.5-pro',
  'textmodel-c-2.5-flash%2f%2e%2e%2fgemini-2.5-pro',
  'textmodel-c-2.5-flash\\..\\gemini-2.5-pro',
  'textmodel-c-2.5-flash?key=other',
  'textmodel-c-2.5-flash#x',
  'textmodel-c-2.5-flash/./x',
  'textmodel-c-2.5-flash//x',
  // A plain `/` is no traversal, but Gemini's path takes one segment: the provider refuses it.
  'textmodel-c-2.5-flash/x',
];

describe('finding 2: model ids never reach an upstream URL path as a path', () => {
  let gemini: FakeGeminiUpstream;
  let replicate: FakeReplicateUpstream;
  let gw: RunningGateway;
  let scoped: string;

  beforeAll(async () => {
    gemini = await startFakeGeminiUpstream();
    replicate = await startFakeReplicateUpstream({ processingMs: 20 });
    gw = await startGateway({
      media: { allowPrivateUrls: true },
      channels: [
        geminiUpChannel(gemini),
        // An operator rewrite that strips the prefix: `textmodel-d-..` would become `..`.
        {
          name: 'gemini-bare',
          provider: 'gemini',
          baseUrl: gemini.url,
          apiKey: FAKE_GEMINI_KEY,
          models: ['textmodel-d-*'],
          modelRewrite: [{ from: 'textmodel-d-', to: '' }],
        },
        {
          name: 'replicate-up',
          provider: 'replicate',
          baseUrl: replicate.url,
          apiKey: FAKE_REPLICATE_TOKEN,
          models: ['imagegen1-*'],
          modelRewrite: [{ from: 'imagegen1-', to: 'black-forest-labs/' }],
          options: { pollIntervalMs: 20 },
        },
        {
          name: 'replicate-tasks',
          provider: 'replicate',
          baseUrl: replicate.url,
          apiKey: FAKE_REPLICATE_TOKEN,
          models: ['black-forest-labs/*'],
          options: { pollIntervalMs: 20 },
        },
        {
          // A task-mode rewrite whose result is no `owner/name`: `acme/x` → `black-forest-labs/flux-schnell/x`.
          name: 'replicate-acme',
          provider: 'replicate',
          baseUrl: replicate.url,
          apiKey: FAKE_REPLICATE_TOKEN,
          models: ['acme/*'],
          modelRewrite: [{ from: 'acme/', to: 'black-forest-labs/flux-schnell/' }],
          options: { pollIntervalMs: 20 },
        },
      ],
    });
    scoped = await gw.createKey({ name: 'flash only', models: ['textmodel-c-2.5-flash*', 'textmodel-d-*', 'imagegen1-*'] });
  });

  afterAll(async () => {
    await gw?.close();
    await gemini?.close();
    await replicate?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const openaiChat = (model: string) =>
    post('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }, { authorization: `Bearer ${scoped}` });
  const anthropicMessages = (model: string) =>
    post('/v1/messages', { model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': scoped, 'anthropic-version': '2023-06-01' });
  /** The model as one path segment of the Gemini surface's own URL, as the SDKs send it. */
  const geminiGenerate = (model: string, action = 'generateContent') =>
    post(`/v1beta/models/${encodeURIComponent(model)}:${action}`, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, { 'x-goog-api-key': scoped });

  it.each(TRAVERSALS)('OpenAI chat with %j: 400 in the OpenAI shape, nothing sent upstream', async (model) => {
    const before = gemini.requests.length;
    const res = await openaiChat(model);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { type: string; param: string; message: string } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
    expect(body.error.message).toMatch(/model id/);
    expect(gemini.requests.slice(before).map((r) => r.path)).toEqual([]);
  });

  it.each(TRAVERSALS)('Gemini generateContent with %j in its URL: 400 in the Gemini shape, nothing sent upstream', async (model) => {
    const before = gemini.requests.length;
    const res = await geminiGenerate(model);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    expect(gemini.requests.slice(before).map((r) => r.path)).toEqual([]);
  });

  it('Gemini streamGenerateContent and a double-encoded spelling: 400, nothing sent upstream', async () => {
    const before = gemini.requests.length;
    for (const model of ['textmodel-c-2.5-flash/../gemini-2.5-pro', 'textmodel-c-2.5-flash%2F..%2Fgemini-2.5-pro']) {
      const res = await geminiGenerate(model, 'streamGenerateContent');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    }
    // `%252F` arrives as `%2F` once the gateway decoded its own URL.
    const doubled = await post(
      '/v1beta/models/textmodel-c-2.5-flash%252F..%252Fgemini-2.5-pro:generateContent',
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      { 'x-goog-api-key': scoped },
    );
    expect(doubled.status).toBe(400);
    expect(gemini.requests.slice(before).map((r) => r.path)).toEqual([]);
  });

  it('Anthropic messages with a traversal: 400 in the Anthropic shape, nothing sent upstream', async () => {
    const before = gemini.requests.length;
    const res = await anthropicMessages('textmodel-c-2.5-flash/../gemini-2.5-pro');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(gemini.requests.slice(before)).toEqual([]);
  });

  it('an operator rewrite cannot produce a dot segment: `textmodel-d-..` → `..` is refused before the upstream', async () => {
    const before = gemini.requests.length;
    for (const model of ['textmodel-d-..', 'textmodel-d-.']) {
      const res = await openaiChat(model);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe('model');
    }
    expect(gemini.requests.slice(before)).toEqual([]);
  });

  it('the legitimate id still works, and the key scope still refuses another model', async () => {
    const before = gemini.requests.length;
    const ok = await openaiChat('textmodel-c-2.5-flash');
    expect(ok.status).toBe(200);
    const native = await geminiGenerate('textmodel-c-2.5-flash');
    expect(native.status).toBe(200);
    expect(gemini.requests.slice(before).map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.5-flash:generateContent',
      '/v1beta/models/gemini-2.5-flash:generateContent',
    ]);
    expect((await openaiChat('textmodel-c-2.5-pro')).status).toBe(403);
  });

  describe('Replicate: the model is `owner/name` in the path', () => {
    const generate = (model: string) =>
      post('/v1/images/generations', { model, prompt: 'a lighthouse', size: '1024x1024', response_format: 'b64_json' }, { authorization: `Bearer ${scoped}` });

    it.each([
      // The client's id: refused by the gateway-wide rule.
      'imagegen1-flux-schnell/../../../v1/account',
      'imagegen1-flux-schnell%2F..%2Fflux-pro',
      // Admitted ids whose rewrite is no `owner/name`: refused by the provider.
      'imagegen1-flux-schnell/extra',
      'imagegen1-..',
    ])('%j: 400 in the OpenAI shape, nothing sent to Replicate', async (model) => {
      const before = replicate.requests.length;
      const res = await generate(model);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe('model');
      expect(replicate.requests.slice(before).map((r) => r.path)).toEqual([]);
    });

    // imagegen1's own parser takes `owner/name` only, and already refused these: kept so that it stays so.
    it.each(['black-forest-labs/../../v1/account', 'black-forest-labs/flux-schnell%2F..', 'black-forest-labs/flux-schnell/extra', 'black-forest-labs/..'])(
      'imagegen1 task with %j through a `black-forest-labs/*` channel: refused in its shape, no prediction created',
      async (model) => {
        const before = replicate.requests.length;
        const res = await post('/imagegen1/create', { model, prompt: 'a lighthouse' }, { authorization: `Bearer ${gw.key}` });
        // imagegen1 speaks Replicate's dialect: a refused input is 422 {title, detail, status}.
        expect(res.status).toBe(422);
        expect(await res.json()).toMatchObject({ status: 422, detail: expect.stringContaining('model') });
        expect(replicate.requests.slice(before).map((r) => r.path)).toEqual([]);
      },
    );

    it('imagegen1 task whose rewrite is no `owner/name`: refused before the prediction is created', async () => {
      const before = replicate.requests.length;
      const res = await post('/imagegen1/create', { model: 'acme/x', prompt: 'a lighthouse' }, { authorization: `Bearer ${gw.key}` });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ status: 400, detail: expect.stringMatching(/model id cannot be sent/) });
      expect(replicate.requests.slice(before).map((r) => r.path)).toEqual([]);
    });

    it('the legitimate id reaches the model predictions endpoint', async () => {
      const before = replicate.requests.length;
      const res = await generate('imagegen1-flux-schnell');
      expect(res.status).toBe(200);
      const creates = replicate.requests.slice(before).filter((r) => r.method === 'POST');
      expect(creates.map((r) => r.path)).toEqual(['/v1/models/black-forest-labs/flux-schnell/predictions']);
    });
  });
});
