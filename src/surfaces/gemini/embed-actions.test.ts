/**
 * `:embedContent` and `:batchEmbedContents` through the Gemini surface, driven by the
 * official `@google/genai` SDK and by raw HTTP, against a stub embed service whose vector
 * for a text is `[its length, its first character code]`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { RouteInfo } from '../../core/route.js';
import type { EmbedCall, EmbedOutcome, GatewayServices } from '../../gateway/contract.js';
import { geminiSurface } from './index.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';

const KEY = 'gg-gemini-embed-key';
const route: RouteInfo = { channel: 'stub-embed', provider: 'sandbox', simulated: true, upstreamModel: 'stub', attempts: 1, passthrough: false };
const calls: EmbedCall[] = [];

const services: GatewayServices = {
  ...unusedServices,
  async authenticate(presented) {
    if (presented !== KEY) throw new GatewayError('authentication', 'API key not valid. Please pass a valid API key.');
    return { id: 'k1', name: 'test', models: null, isMaster: false, accountId: null };
  },
  chat: () => Promise.reject(new Error('chat is not used by this test')),
  listModels: () => [],
  async embed(call): Promise<EmbedOutcome> {
    calls.push(call);
    const embeddings = call.request.inputs.map((text) => [text.length, text.charCodeAt(0)]);
    return { response: { model: call.request.model, embeddings, usage: { inputTokens: 1 } }, route };
  },
};

let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  app = Fastify();
  await geminiSurface.register(app, services);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; headers: Headers }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json(), headers: response.headers };
}

describe('Gemini embed actions', () => {
  it('@google/genai models.embedContent with one content (sent as a batch of one)', async () => {
    const ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl } });
    const result = await ai.models.embedContent({ model: 'text-embedding-004', contents: 'hello' });
    expect(result.embeddings).toEqual([{ values: [5, 104] }]);
    expect(calls.at(-1)).toMatchObject({ surface: 'gemini', request: { model: 'text-embedding-004', inputs: ['hello'] } });
  });

  it('@google/genai models.embedContent with several contents and a config', async () => {
    const ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl } });
    const result = await ai.models.embedContent({
      model: 'gemini-embedding-001',
      contents: ['ab', 'cde', 'f'],
      config: { taskType: 'RETRIEVAL_DOCUMENT', title: 'Handbook', outputDimensionality: 2 },
    });
    expect(result.embeddings).toEqual([{ values: [2, 97] }, { values: [3, 99] }, { values: [1, 102] }]);
    expect(calls.at(-1)!.request).toEqual({
      model: 'gemini-embedding-001',
      inputs: ['ab', 'cde', 'f'],
      taskType: 'RETRIEVAL_DOCUMENT',
      title: 'Handbook',
      dimensions: 2,
    });
    expect(result.sdkHttpResponse?.headers?.['x-gengate-channel']).toBe('stub-embed');
  });

  it(':embedContent with ?key= in snake_case', async () => {
    const { status, json, headers } = await post(`/v1beta/models/text-embedding-004:embedContent?key=${KEY}`, {
      model: 'models/text-embedding-004',
      content: { parts: [{ text: 'line one' }, { text: 'two' }] },
      task_type: 'SEMANTIC_SIMILARITY',
      output_dimensionality: 2,
    });
    expect(status).toBe(200);
    // 'line one\ntwo' is 12 characters.
    expect(json).toEqual({ embedding: { values: [12, 108] } });
    expect(calls.at(-1)!.request).toEqual({ model: 'text-embedding-004', inputs: ['line one\ntwo'], taskType: 'SEMANTIC_SIMILARITY', dimensions: 2 });
    expect(headers.get('x-gengate-simulated')).toBe('true');
  });

  it(':batchEmbedContents with mixed options answers in request order', async () => {
    const { status, json } = await post(
      '/v1beta/models/text-embedding-004:batchEmbedContents',
      {
        requests: [
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'q' }] }, taskType: 'RETRIEVAL_QUERY' },
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'doc' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'T' },
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'query two' }] }, taskType: 'RETRIEVAL_QUERY' },
        ],
      },
      { 'x-goog-api-key': KEY },
    );
    expect(status).toBe(200);
    expect(json).toEqual({ embeddings: [{ values: [1, 113] }, { values: [3, 100] }, { values: [9, 113] }] });
    expect(calls.slice(-2).map((call) => call.request)).toEqual([
      { model: 'text-embedding-004', inputs: ['q', 'query two'], taskType: 'RETRIEVAL_QUERY' },
      { model: 'text-embedding-004', inputs: ['doc'], taskType: 'RETRIEVAL_DOCUMENT', title: 'T' },
    ]);
  });

  it('takes a Bearer key and the v1 path too', async () => {
    const { status, json } = await post(
      '/v1/models/text-embedding-004:embedContent',
      { content: { parts: [{ text: 'z' }] } },
      { authorization: `Bearer ${KEY}` },
    );
    expect(status).toBe(200);
    expect(json).toEqual({ embedding: { values: [1, 122] } });
  });

  it('refuses a batch request naming another model, in Google error shape', async () => {
    const { status, json } = await post(`/v1beta/models/text-embedding-004:batchEmbedContents?key=${KEY}`, {
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] } },
      ],
    });
    expect(status).toBe(400);
    const message = 'requests[1].model: "models/gemini-embedding-001" does not match the model of the batch (models/text-embedding-004)';
    expect(json).toEqual({
      error: {
        code: 400,
        message,
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'requests[1].model', description: message }] }],
      },
    });
  });

  it('refuses a bad task type and a misplaced title with 400', async () => {
    const bad = await post(`/v1beta/models/text-embedding-004:embedContent?key=${KEY}`, { content: { parts: [{ text: 'a' }] }, taskType: 'SUMMARY' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', details: [{ fieldViolations: [{ field: 'taskType' }] }] } });
    const title = await post(`/v1beta/models/text-embedding-004:embedContent?key=${KEY}`, {
      content: { parts: [{ text: 'a' }] },
      taskType: 'CLUSTERING',
      title: 'x',
    });
    expect(title.status).toBe(400);
    expect(title.json).toMatchObject({ error: { details: [{ fieldViolations: [{ field: 'title' }] }] } });
  });

  it('refuses a wrong key with 400 API_KEY_INVALID before parsing', async () => {
    const { status, json } = await post('/v1beta/models/text-embedding-004:embedContent?key=wrong', { content: {} });
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }, {}] } });
  });
});
