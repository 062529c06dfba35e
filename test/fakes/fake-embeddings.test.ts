/**
 * The official SDKs straight against the fakes' embedding endpoints: if the SDKs are
 * satisfied, the fakes speak the wire formats; their limits answer as the real APIs do.
 */
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeEmbeddingValues } from './fake-embedding-values.js';
import { fakeGeminiEmbeddingSeed } from './fake-gemini-embeddings.js';
import { FAKE_GEMINI_KEY, startFakeGeminiUpstream, type FakeGeminiUpstream } from './fake-gemini-upstream.js';
import { fakeOpenAIEmbeddingSeed } from './fake-openai-embeddings.js';
import { FAKE_OPENAI_API_KEY, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fake-openai-upstream.js';

let openaiUp: FakeOpenAIUpstream;
let geminiUp: FakeGeminiUpstream;
beforeAll(async () => {
  [openaiUp, geminiUp] = await Promise.all([startFakeOpenAIUpstream(), startFakeGeminiUpstream()]);
});
afterAll(async () => {
  await Promise.all([openaiUp.close(), geminiUp.close()]);
});

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('fake OpenAI /v1/embeddings', () => {
  it('answers the SDK default (base64) so that the SDK decodes the same floats', async () => {
    const client = new OpenAI({ baseURL: openaiUp.url, apiKey: FAKE_OPENAI_API_KEY, maxRetries: 0 });
    const result = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'two words', dimensions: 5 });
    expect(openaiUp.requests.at(-1)!.body!.encoding_format).toBe('base64');
    expect(result.data[0].embedding).toEqual(fakeEmbeddingValues(fakeOpenAIEmbeddingSeed('text-embedding-3-small', 'two words'), 5));
    expect(result.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('refuses 2049 inputs, empty strings and dimensions for ada-002', async () => {
    const auth = { authorization: `Bearer ${FAKE_OPENAI_API_KEY}` };
    const url = `${openaiUp.url}/embeddings`;
    const invalid = {
      error: {
        message: "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    };
    expect(await post(url, { model: 'text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') }, auth)).toEqual({ status: 400, json: invalid });
    expect(await post(url, { model: 'text-embedding-3-small', input: ['a', ''] }, auth)).toEqual({ status: 400, json: invalid });
    const ada = await post(url, { model: 'text-embedding-ada-002', input: 'a', dimensions: 8 }, auth);
    expect(ada.status).toBe(400);
    const ok = await post(url, { model: 'text-embedding-3-small', input: Array.from({ length: 2048 }, () => 'x'), dimensions: 1 }, auth);
    expect(ok.status).toBe(200);
    expect((ok.json.data as unknown[]).length).toBe(2048);
  });
});

describe('fake Gemini embeddings', () => {
  it('serves @google/genai models.embedContent (batchEmbedContents)', async () => {
    const ai = new GoogleGenAI({ apiKey: FAKE_GEMINI_KEY, httpOptions: { baseUrl: geminiUp.url } });
    const result = await ai.models.embedContent({
      model: 'text-embedding-004',
      contents: ['a b', 'c'],
      config: { taskType: 'CLUSTERING', outputDimensionality: 3 },
    });
    expect(result.embeddings).toEqual([
      { values: fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', 'a b', 'CLUSTERING'), 3) },
      { values: fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', 'c', 'CLUSTERING'), 3) },
    ]);
  });

  it('takes snake_case on :embedContent and refuses unknown names', async () => {
    const url = `${geminiUp.url}/v1beta/models/text-embedding-004:embedContent?key=${FAKE_GEMINI_KEY}`;
    const ok = await post(url, { content: { parts: [{ text: 'x' }] }, task_type: 'RETRIEVAL_DOCUMENT', title: 'T', output_dimensionality: 2 }, {});
    expect(ok).toEqual({
      status: 200,
      json: { embedding: { values: fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', 'x', 'RETRIEVAL_DOCUMENT', 'T'), 2) } },
    });
    const unknown = await post(url, { content: { parts: [{ text: 'x' }] }, dimensions: 2 }, {});
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({
      error: { status: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received. Unknown name "dimensions": Cannot find field.' },
    });
  });

  it('refuses 101 requests, a foreign model inside the batch and a title without RETRIEVAL_DOCUMENT', async () => {
    const url = `${geminiUp.url}/v1beta/models/text-embedding-004:batchEmbedContents`;
    const key = { 'x-goog-api-key': FAKE_GEMINI_KEY };
    const request = (text: string) => ({ model: 'models/text-embedding-004', content: { parts: [{ text }] } });
    const many = await post(url, { requests: Array.from({ length: 101 }, (_, i) => request(`t${i}`)) }, key);
    expect(many).toEqual({
      status: 400,
      json: { error: { code: 400, message: '* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch\n', status: 'INVALID_ARGUMENT' } },
    });
    expect((await post(url, { requests: Array.from({ length: 100 }, (_, i) => request(`t${i}`)) }, key)).status).toBe(200);
    expect((await post(url, { requests: [{ ...request('a'), model: 'models/embedding-001' }] }, key)).status).toBe(400);
    expect((await post(url, { requests: [{ ...request('a'), title: 'T' }] }, key)).status).toBe(400);
  });
});
