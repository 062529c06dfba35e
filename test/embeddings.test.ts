/**
 * Embeddings end to end: the official `openai` and `@google/genai` SDKs and raw HTTP against a
 * real gateway, whose channels reach the fake OpenAI and Gemini upstreams (faithful to their
 * published formats and batch limits) and the sandbox. Expected vectors are the fakes'
 * (`fakeEmbeddingValues`, exact in float32), so every value is checked after its trip through
 * the translation and, for the SDK default, base64 float32.
 */
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEmbeddingValues } from './fakes/fake-embedding-values.js';
import { fakeGeminiEmbeddingSeed } from './fakes/fake-gemini-embeddings.js';
import { FAKE_GEMINI_KEY, startFakeGeminiUpstream, type FakeGeminiUpstream } from './fakes/fake-gemini-upstream.js';
import { fakeOpenAIEmbeddingSeed } from './fakes/fake-openai-embeddings.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let openaiUp: FakeOpenAIUpstream;
let geminiUp: FakeGeminiUpstream;
let gw: RunningGateway;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  [openaiUp, geminiUp] = await Promise.all([startFakeOpenAIUpstream(), startFakeGeminiUpstream()]);
  gw = await startGateway({
    channels: [
      // Like a local server taking fewer inputs per call than OpenAI's 2048.
      {
        name: 'openai-embed',
        provider: 'openai',
        baseUrl: openaiUp.url,
        apiKey: FAKE_OPENAI_API_KEY,
        models: ['text-embedding-3-small'],
        options: { embedBatchSize: 1000 },
      },
      { name: 'gemini-embed', provider: 'gemini', baseUrl: geminiUp.url, apiKey: FAKE_GEMINI_KEY, models: ['text-embedding-004'] },
    ],
  });
  openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
});
afterAll(async () => {
  await gw.close();
  await Promise.all([openaiUp.close(), geminiUp.close()]);
});

const openaiVector = (text: string, dimensions: number) => fakeEmbeddingValues(fakeOpenAIEmbeddingSeed('text-embedding-3-small', text), dimensions);
const geminiVector = (text: string, dimensions: number, taskType?: string, title?: string) =>
  fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', text, taskType, title), dimensions);

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

async function postJson(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

describe('openai SDK embeddings.create', () => {
  it('default (base64) against the OpenAI upstream: decoded vectors equal the upstream floats', async () => {
    const { data, response } = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['the first text', 'second'] }).withResponse();
    expect(data.object).toBe('list');
    expect(data.model).toBe('text-embedding-3-small');
    expect(data.data.map((item) => [item.object, item.index])).toEqual([
      ['embedding', 0],
      ['embedding', 1],
    ]);
    expect(data.data[0].embedding).toEqual(openaiVector('the first text', 1536));
    expect(data.data[1].embedding).toEqual(openaiVector('second', 1536));
    // The fake counts words: 3 + 1.
    expect(data.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
    expect(openaiUp.requests.at(-1)!.body).toEqual({ model: 'text-embedding-3-small', input: ['the first text', 'second'], encoding_format: 'float' });
    expect(response.headers.get('x-gengate-channel')).toBe('openai-embed');
    expect(response.headers.get('x-gengate-provider')).toBe('openai');
  });

  it('encoding_format float and dimensions', async () => {
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'short one', encoding_format: 'float', dimensions: 64 });
    expect(result.data).toEqual([{ object: 'embedding', index: 0, embedding: openaiVector('short one', 64) }]);
    expect(openaiUp.requests.at(-1)!.body).toEqual({ model: 'text-embedding-3-small', input: ['short one'], encoding_format: 'float', dimensions: 64 });
  });

  it('reaches the Gemini upstream (translated to batchEmbedContents)', async () => {
    const { data, response } = await openai.embeddings.create({ model: 'text-embedding-004', input: ['alpha', 'beta'], dimensions: 32 }).withResponse();
    expect(data.data.map((item) => item.embedding)).toEqual([geminiVector('alpha', 32), geminiVector('beta', 32)]);
    expect(data.model).toBe('text-embedding-004');
    expect(geminiUp.requests.at(-1)!.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(response.headers.get('x-gengate-channel')).toBe('gemini-embed');
  });

  it('is split into calls of the channel embedBatchSize (1000 + 1000 + 48), reassembled in order', async () => {
    const inputs = Array.from({ length: 2048 }, (_, i) => `input number ${i}`);
    const before = openaiUp.requests.length;
    const result = await openai.embeddings.create({ model: 'text-embedding-3-small', input: inputs, dimensions: 2, encoding_format: 'float' });
    const calls = openaiUp.requests.slice(before).filter((r) => r.path === '/v1/embeddings');
    expect(calls.map((call) => (call.body!.input as string[]).length).sort((a, b) => b - a)).toEqual([1000, 1000, 48]);
    expect(result.data.map((item) => item.index)).toEqual(inputs.map((_, i) => i));
    expect(result.data.map((item) => item.embedding)).toEqual(inputs.map((text) => openaiVector(text, 2)));
    expect(result.usage.prompt_tokens).toBe(2048 * 3);
  });

  it('refuses an empty string with a 400 naming it', async () => {
    const error = await openai.embeddings.create({ model: 'text-embedding-3-small', input: ['fine', ''] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'input[1]', type: 'invalid_request_error' });
  });
});

describe('@google/genai models.embedContent', () => {
  it('one content against the Gemini upstream', async () => {
    const result = await genai.models.embedContent({ model: 'text-embedding-004', contents: 'What is the meaning of life?' });
    expect(result.embeddings).toEqual([{ values: geminiVector('What is the meaning of life?', 768) }]);
    expect(result.sdkHttpResponse?.headers?.['x-gengate-channel']).toBe('gemini-embed');
  });

  it('several contents with task type, title and dimensionality', async () => {
    const result = await genai.models.embedContent({
      model: 'text-embedding-004',
      contents: ['chapter one', 'chapter two', 'chapter three'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'The book', outputDimensionality: 8 },
    });
    expect(result.embeddings).toEqual(
      ['chapter one', 'chapter two', 'chapter three'].map((text) => ({ values: geminiVector(text, 8, 'RETRIEVAL_DOCUMENT', 'The book') })),
    );
  });

  it('reaches the OpenAI upstream', async () => {
    const result = await genai.models.embedContent({ model: 'text-embedding-3-small', contents: ['one', 'two words'], config: { outputDimensionality: 16 } });
    expect(result.embeddings).toEqual([{ values: openaiVector('one', 16) }, { values: openaiVector('two words', 16) }]);
    expect(openaiUp.requests.at(-1)!.body).toEqual({ model: 'text-embedding-3-small', input: ['one', 'two words'], encoding_format: 'float', dimensions: 16 });
    expect(result.sdkHttpResponse?.headers?.['x-gengate-provider']).toBe('openai');
  });
});

describe('raw Gemini HTTP', () => {
  it(':embedContent?key= in snake_case, parts joined with a newline', async () => {
    const { status, json } = await postJson(`/v1beta/models/text-embedding-004:embedContent?key=${gw.key}`, {
      model: 'models/text-embedding-004',
      content: { parts: [{ text: 'first line' }, { text: 'second line' }] },
      task_type: 'SEMANTIC_SIMILARITY',
      output_dimensionality: 12,
    });
    expect(status).toBe(200);
    expect(json).toEqual({ embedding: { values: geminiVector('first line\nsecond line', 12, 'SEMANTIC_SIMILARITY') } });
  });

  it(':batchEmbedContents of 250 is split into 100 + 100 + 50 upstream calls, answered in order', async () => {
    const texts = Array.from({ length: 250 }, (_, i) => `passage ${i}`);
    const before = geminiUp.requests.length;
    const { status, json } = await postJson(`/v1beta/models/text-embedding-004:batchEmbedContents?key=${gw.key}`, {
      requests: texts.map((text) => ({ model: 'models/text-embedding-004', content: { parts: [{ text }] }, outputDimensionality: 4 })),
    });
    expect(status).toBe(200);
    const calls = geminiUp.requests.slice(before);
    expect(calls.every((call) => call.path === '/v1beta/models/text-embedding-004:batchEmbedContents')).toBe(true);
    expect(calls.map((call) => (call.body as { requests: unknown[] }).requests.length).sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(json).toEqual({ embeddings: texts.map((text) => ({ values: geminiVector(text, 4) })) });
  });

  it('refuses a batch request naming another model with a 400 in Google shape', async () => {
    const { status, json } = await postJson(`/v1beta/models/text-embedding-004:batchEmbedContents?key=${gw.key}`, {
      requests: [{ model: 'models/text-embedding-3-small', content: { parts: [{ text: 'x' }] } }],
    });
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', details: [{ fieldViolations: [{ field: 'requests[0].model' }] }] } });
  });
});

describe('the sandbox through the gateway', () => {
  it('puts texts sharing words closer (openai SDK, text-embedding-3-large)', async () => {
    const { data, response } = await openai.embeddings
      .create({ model: 'text-embedding-3-large', input: ['the cat sat on the mat', 'a cat on a mat', 'quarterly revenue grew'] })
      .withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    const [cat, similar, unrelated] = data.data.map((item) => item.embedding);
    expect(cat).toHaveLength(3072);
    for (const vector of [cat, similar, unrelated]) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(cosine(cat, similar)).toBeGreaterThan(cosine(cat, unrelated) + 0.3);
    expect(data.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('is deterministic and honours outputDimensionality (@google/genai, gemini-embedding-001)', async () => {
    const ask = () =>
      genai.models.embedContent({
        model: 'gemini-embedding-001',
        contents: ['graph databases', 'graph database queries', 'banana bread'],
        config: { outputDimensionality: 256 },
      });
    const [first, second] = [await ask(), await ask()];
    expect(first.embeddings).toEqual(second.embeddings);
    const [a, b, c] = first.embeddings!.map((embedding) => embedding.values!);
    expect(a).toHaveLength(256);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.3);
  });
});
