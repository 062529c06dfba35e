/**
 * `POST /v1/embeddings` through the OpenAI surface, driven by the official `openai` SDK (whose
 * default is base64) and raw HTTP, against a stub embed service whose vector for a text is
 * `[its length, 0.5, -0.25]` (all exact in float32).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { RouteInfo } from '../../core/route.js';
import type { EmbedCall, EmbedOutcome, GatewayServices } from '../../gateway/contract.js';
import { openaiSurface } from './index.js';
import { unusedServices } from '../../../test/helpers/unused-services.js';

const KEY = 'sk-gw-embed-key';
const route: RouteInfo = { channel: 'stub-embed', provider: 'openai', simulated: false, upstreamModel: 'stub', attempts: 1, passthrough: false };
const calls: EmbedCall[] = [];

const services: GatewayServices = {
  ...unusedServices,
  async authenticate(presented) {
    if (presented !== KEY) throw new GatewayError('authentication', 'Incorrect API key provided');
    return { id: 'k1', name: 'test', models: null, isMaster: false, accountId: null };
  },
  chat: () => Promise.reject(new Error('chat is not used by this test')),
  listModels: () => [],
  async embed(call): Promise<EmbedOutcome> {
    calls.push(call);
    const embeddings = call.request.inputs.map((text) => [text.length, 0.5, -0.25]);
    return { response: { model: call.request.model, embeddings, usage: { inputTokens: 3 * call.request.inputs.length } }, route };
  },
};

let app: FastifyInstance;
let client: OpenAI;
let address: string;

beforeAll(async () => {
  app = Fastify();
  await openaiSurface.register(app, services);
  address = await app.listen({ port: 0, host: '127.0.0.1' });
  client = new OpenAI({ baseURL: `${address}/v1`, apiKey: KEY, maxRetries: 0 });
});
afterAll(() => app.close());

async function post(body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${address}/v1/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('POST /v1/embeddings', () => {
  it('answers the SDK default (base64), which the SDK decodes', async () => {
    const { data, response } = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['four', 'sixsix'] }).withResponse();
    expect(data).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [4, 0.5, -0.25] },
        { object: 'embedding', index: 1, embedding: [6, 0.5, -0.25] },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 6, total_tokens: 6 },
    });
    expect(response.headers.get('x-gengate-channel')).toBe('stub-embed');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers floats when the SDK asks for them, and passes dimensions and user on', async () => {
    const result = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'abc', encoding_format: 'float', dimensions: 3, user: 'u-1' });
    expect(result.data).toEqual([{ object: 'embedding', index: 0, embedding: [3, 0.5, -0.25] }]);
    expect(calls.at(-1)!.request).toEqual({ model: 'text-embedding-3-large', inputs: ['abc'], dimensions: 3, user: 'u-1' });
  });

  it('answers floats when the raw request names no encoding, and exact base64 bytes when asked', async () => {
    const plain = await post({ model: 'text-embedding-3-small', input: 'xy' });
    expect(plain).toEqual({
      status: 200,
      json: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [2, 0.5, -0.25] }],
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    });
    const encoded = await post({ model: 'text-embedding-3-small', input: 'xy', encoding_format: 'base64' });
    const text = (encoded.json as { data: Array<{ embedding: string }> }).data[0].embedding;
    const bytes = Buffer.from(text, 'base64');
    // 2.0f = 0x40000000, 0.5f = 0x3f000000, -0.25f = 0xbe800000, each lowest byte first.
    expect([...bytes]).toEqual([0, 0, 0, 0x40, 0, 0, 0, 0x3f, 0, 0, 0x80, 0xbe]);
  });

  it('decodes token inputs with cl100k_base', async () => {
    await post({ model: 'text-embedding-3-small', input: [[15339, 1917], [15339]] });
    expect(calls.at(-1)!.request.inputs).toEqual(['hello world', 'hello']);
  });

  it('refuses bad input with 400 in OpenAI error shape', async () => {
    expect(await post({ model: 'text-embedding-3-small', input: ['ok', ''] })).toEqual({
      status: 400,
      json: { error: { message: 'input[1]: must not be an empty string', type: 'invalid_request_error', param: 'input[1]', code: null } },
    });
    const tooMany = await post({ model: 'text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ error: { param: 'input', type: 'invalid_request_error' } });
    const badTokens = await post({ model: 'text-embedding-3-small', input: [999_999_999] });
    expect(badTokens.status).toBe(400);
    expect(badTokens.json).toMatchObject({ error: { param: 'input' } });
    const format = await post({ model: 'text-embedding-3-small', input: 'x', encoding_format: 'int8' });
    expect(format.status).toBe(400);
    expect(format.json).toMatchObject({ error: { param: 'encoding_format' } });
  });

  it('refuses a wrong key with 401', async () => {
    const wrong = new OpenAI({ baseURL: `${address}/v1`, apiKey: 'nope', maxRetries: 0 });
    const error = await wrong.embeddings.create({ model: 'text-embedding-3-small', input: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
