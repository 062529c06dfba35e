/**
 * Cohere Embed on Bedrock (v3 English and multilingual, v4) through the OpenAI SDK's embeddings,
 * against the fake Bedrock runtime (fakes/fake-bedrock.ts), which answers both of Cohere's
 * published shapes (a list of float vectors, or an object keyed by embedding type) and counts the
 * input tokens only in the `X-Amzn-Bedrock-Input-Token-Count` header.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { BEDROCK_CHANNEL_KEY, BEDROCK_REGION, type FakeBedrock, startFakeBedrock } from './fakes/fake-bedrock.js';
import { fakeEmbeddingValues } from './fakes/fake-embedding-values.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let anthropic: FakeAnthropicUpstream;
let bedrock: FakeBedrock;
let gw: RunningGateway;
let client: OpenAI;

const MODELS = ['cohere.embed-english-v3', 'cohere.embed-multilingual-v3', 'cohere.embed-v4:0', 'cohere.embed-english-v3-noheader'];

beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
  bedrock = await startFakeBedrock({ anthropic: anthropic.url });
  gw = await startGateway({
    channels: [
      { name: 'bedrock-embed', provider: 'bedrock', baseUrl: bedrock.url, apiKey: BEDROCK_CHANNEL_KEY, models: MODELS, options: { region: BEDROCK_REGION } },
    ],
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await bedrock?.close();
  await anthropic?.close();
});

describe('Cohere Embed on Bedrock', () => {
  it('v3: one InvokeModel call per input, vectors by type read in order, usage from the token-count header', async () => {
    const before = bedrock.calls.length;
    const embedded = await client.embeddings.create({ model: 'cohere.embed-english-v3', input: ['one two', 'three four five'], encoding_format: 'float' });
    expect(embedded.data.map((item) => item.embedding)).toEqual([
      fakeEmbeddingValues('search_document:one two', 1024),
      fakeEmbeddingValues('search_document:three four five', 1024),
    ]);
    expect(embedded.usage).toMatchObject({ prompt_tokens: 5, total_tokens: 5 });
    expect(bedrock.calls.slice(before).map((call) => [call.rawPath, call.body])).toEqual([
      ['/model/cohere.embed-english-v3/invoke', { texts: ['one two'], input_type: 'search_document', embedding_types: ['float'] }],
      ['/model/cohere.embed-english-v3/invoke', { texts: ['three four five'], input_type: 'search_document', embedding_types: ['float'] }],
    ]);
    await gw.gateway.recorder.flush();
    const [row] = await gw.gateway.usage.recent(1);
    expect(row).toMatchObject({ provider: 'bedrock', channel: 'bedrock-embed', model: 'cohere.embed-english-v3', outcome: 'ok', input_tokens: 5 });
  });

  it('v4: output_dimension from dimensions, the float-list answer, decoded exactly from base64', async () => {
    const embedded = await client.embeddings.create({ model: 'cohere.embed-v4:0', input: 'a page about rivers', dimensions: 256, encoding_format: 'base64' });
    expect(embedded.data).toHaveLength(1);
    // The SDK returns the base64 string as given when base64 is asked for explicitly.
    const raw = embedded.data[0].embedding as unknown as string;
    const bytes = Buffer.from(raw, 'base64');
    const vector = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    expect(vector).toEqual(fakeEmbeddingValues('search_document:a page about rivers', 256));
    expect(embedded.usage.prompt_tokens).toBe(4);
    expect(bedrock.calls.at(-1)!.body).toEqual({
      texts: ['a page about rivers'],
      input_type: 'search_document',
      embedding_types: ['float'],
      output_dimension: 256,
    });
  });

  it('v4 with the SDK default encoding (base64, decoded by the SDK)', async () => {
    const embedded = await client.embeddings.create({ model: 'cohere.embed-v4:0', input: 'rivers' });
    expect(embedded.data[0].embedding).toEqual(fakeEmbeddingValues('search_document:rivers', 1536));
  });

  it('v3 drops dimensions with a warning; v4 refuses a dimension it does not have with a 400', async () => {
    const answer = await client.embeddings
      .create({ model: 'cohere.embed-multilingual-v3', input: 'bonjour', dimensions: 256, encoding_format: 'float' })
      .withResponse();
    expect(answer.data.data[0].embedding).toHaveLength(1024);
    expect(answer.response.headers.get('x-gengate-warnings')).toContain('dimensions: not a Cohere Embed v3 setting on Bedrock, dropped');
    expect(bedrock.calls.at(-1)!.body).not.toHaveProperty('output_dimension');

    const calls = bedrock.calls.length;
    const refused = (await client.embeddings.create({ model: 'cohere.embed-v4:0', input: 'x', dimensions: 300 }).catch((e: unknown) => e)) as InstanceType<
      typeof OpenAI.APIError
    >;
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused.message).toContain('256, 512, 1024 or 1536');
    expect(bedrock.calls.length).toBe(calls);
  });

  it('without the token-count header, counts the input with the o200k_base estimate', async () => {
    const embedded = await client.embeddings.create({ model: 'cohere.embed-english-v3-noheader', input: 'hello world', encoding_format: 'float' });
    expect(embedded.data[0].embedding).toEqual(fakeEmbeddingValues('search_document:hello world', 1024));
    // "hello" and " world" are one o200k_base token each.
    expect(embedded.usage.prompt_tokens).toBe(2);
  });
});
