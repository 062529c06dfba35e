/**
 * What the ledger records for the named vendors' own models (catalog/vendors.yaml) and the
 * clouds' own ids (catalog/clouds.yaml), compared with costs computed by hand from the published
 * prices: deepseek-chat through the `deepseek` preset against a fake upstream, and Bedrock ids
 * sent as the client's model through the signing fake Bedrock runtime.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { BEDROCK_CHANNEL_KEY, BEDROCK_REGION, type FakeBedrock, startFakeBedrock } from './fakes/fake-bedrock.js';
import { closeServer, readBody, sendJson } from './fakes/fake-http.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

/** An OpenAI-dialect upstream (DeepSeek's API) answering every chat call with the same usage. */
let deepseek: Server;
let deepseekUrl = '';
let anthropic: FakeAnthropicUpstream;
let bedrock: FakeBedrock;

beforeAll(async () => {
  deepseek = createServer((req, res) => {
    void readBody(req).then((text) => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      if (!(req.url ?? '').endsWith('/chat/completions')) return sendJson(res, 404, { error: { message: 'no route' } });
      sendJson(res, 200, {
        id: 'chatcmpl-ds',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10_000, completion_tokens: 2_000, total_tokens: 12_000, prompt_tokens_details: { cached_tokens: 6_000 } },
      });
    });
  });
  await new Promise<void>((resolve) => deepseek.listen(0, '127.0.0.1', resolve));
  deepseekUrl = `http://127.0.0.1:${(deepseek.address() as AddressInfo).port}`;
  anthropic = await startFakeAnthropicUpstream();
  bedrock = await startFakeBedrock({ anthropic: anthropic.url });
});
afterAll(async () => {
  await closeServer(deepseek);
  await bedrock?.close();
  await anthropic?.close();
});

let gw: RunningGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

const US_SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const GLOBAL_SONNET = 'global.anthropic.claude-sonnet-4-5-20250929-v1:0';
const TITAN = 'amazon.titan-embed-text-v2:0';

async function rowOf(requestId: string) {
  await gw!.gateway.recorder.flush();
  return gw!.gateway.store.db.selectFrom('usage_records').selectAll().where('request_id', '=', requestId).executeTakeFirstOrThrow();
}

async function chat(model: string, content: string) {
  const client = new OpenAI({ baseURL: `${gw!.url}/v1`, apiKey: gw!.key, maxRetries: 0 });
  const { response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content }] }).withResponse();
  return rowOf(response.headers.get('x-request-id') ?? '');
}

describe('recorded cost of a named vendor model', () => {
  it('deepseek-chat through the deepseek preset: uncached input, cache hits and output at DeepSeek prices', async () => {
    gw = await startGateway({ channels: [{ name: 'deepseek', provider: 'deepseek', baseUrl: deepseekUrl, apiKey: 'sk-ds', models: ['deepseek-chat'] }] });
    const row = await chat('deepseek-chat', 'hello');
    expect([row.input_tokens, row.cache_read_tokens, row.output_tokens]).toEqual([10_000, 6_000, 2_000]);
    // $0.14 input, $0.0028 cache hit, $0.28 output per million (api-docs.deepseek.com pricing, per models.dev):
    // 4,000 × 0.14 + 6,000 × 0.0028 + 2,000 × 0.28 = 560 + 16.8 + 560 = 1,136.8 µUSD = 1,136,800 nUSD.
    expect(row.cost_nusd).toBe(1_136_800);
    expect(row.unpriced).toBe(0);
  });
});

describe('recorded cost of a Bedrock id sent as the model', () => {
  const channel = () => ({
    name: 'bedrock',
    provider: 'bedrock',
    baseUrl: bedrock.url,
    apiKey: BEDROCK_CHANNEL_KEY,
    models: [US_SONNET, GLOBAL_SONNET, TITAN],
    options: { region: BEDROCK_REGION },
  });

  it('a US cross-Region profile at its geographic price, the global profile at the list price', async () => {
    gw = await startGateway({ channels: [channel()] });
    const us = await chat(US_SONNET, 'Say hi');
    expect(bedrock.calls.at(-1)!.rawPath).toBe(`/model/${encodeURIComponent(US_SONNET)}/converse`);
    expect([us.input_tokens, us.output_tokens]).toEqual([5, 7]);
    // us. profile: $3.30 input, $16.50 output per million (aws.amazon.com/bedrock/pricing, per LiteLLM):
    // 5 × 3.3 + 7 × 16.5 = 16.5 + 115.5 = 132 µUSD = 132,000 nUSD.
    expect(us.cost_nusd).toBe(132_000);
    expect(us.unpriced).toBe(0);

    const global = await chat(GLOBAL_SONNET, 'Say hi');
    expect([global.input_tokens, global.output_tokens]).toEqual([5, 7]);
    // global. profile: $3 input, $15 output per million: 5 × 3 + 7 × 15 = 15 + 105 = 120 µUSD.
    expect(global.cost_nusd).toBe(120_000);
  });

  it('Titan Text Embeddings V2 per input token', async () => {
    gw = await startGateway({ channels: [channel()] });
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const { response } = await client.embeddings.create({ model: TITAN, input: 'one two three four' }).withResponse();
    const row = await rowOf(response.headers.get('x-request-id') ?? '');
    expect(row.input_tokens).toBe(4);
    // $0.02 per million input tokens: 4 × 0.02 = 0.08 µUSD = 80 nUSD.
    expect(row.cost_nusd).toBe(80);
    expect(row.unpriced).toBe(0);
  });
});
