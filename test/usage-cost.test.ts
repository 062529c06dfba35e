/**
 * What the ledger records for real upstream answers, compared with costs computed by hand from
 * the shipped catalog's published prices: one model of each first-party vendor, with cache reads,
 * cache writes, reasoning tokens and the long-context tier. A model without a price is recorded
 * `unpriced`, counted in reports, and refused to a key under a budget unless the operator allows it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/auth/key-admin.js';
import { UsageReports } from '../src/store/usage-report.js';
import { closeServer, readBody, sendJson } from './fakes/fake-http.js';
import { FakeCounterStore, StaticRuleSource } from './helpers/fake-counter-store.js';
import { type ChannelSpec, type RunningGateway, startGateway } from './helpers/start-gateway.js';

/** One upstream speaking the three dialects, answering with the usage the test sets. */
let upstream: Server;
let base = '';
let geminiUsage: Record<string, number> = {};

beforeAll(async () => {
  upstream = createServer((req, res) => {
    void readBody(req).then((text) => {
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      const url = req.url ?? '';
      if (url.endsWith('/chat/completions')) {
        sendJson(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage: {
            prompt_tokens: 10_000,
            completion_tokens: 2_000,
            total_tokens: 12_000,
            prompt_tokens_details: { cached_tokens: 6_000 },
            completion_tokens_details: { reasoning_tokens: 500 },
          },
        });
      } else if (url.endsWith('/v1/messages')) {
        sendJson(res, 200, {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 150_000, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 20_000, output_tokens: 1_000 },
        });
      } else if (url.includes(':generateContent')) {
        sendJson(res, 200, {
          candidates: [{ index: 0, content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
          usageMetadata: geminiUsage,
          modelVersion: 'gemini-2.5-pro',
        });
      } else sendJson(res, 404, { error: { message: `no route ${url}` } });
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(upstream));

let gw: RunningGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

/** `private-model` is in no catalog: it has no price. */
const channels = (): ChannelSpec[] => [
  { name: 'openai', provider: 'openai', baseUrl: `${base}/v1`, apiKey: 'sk-test', models: ['gpt-5', 'private-model'] },
  { name: 'anthropic', provider: 'anthropic', baseUrl: base, apiKey: 'sk-ant-test', models: ['claude-sonnet-4-5'] },
  { name: 'gemini', provider: 'gemini', baseUrl: base, apiKey: 'gemini-test', models: ['gemini-2.5-pro'] },
];

async function rowOf(requestId: string) {
  return gw!.gateway.store.db.selectFrom('usage_records').selectAll().where('request_id', '=', requestId).executeTakeFirstOrThrow();
}

async function ask(model: string, key = gw!.key) {
  const client = new OpenAI({ baseURL: `${gw!.url}/v1`, apiKey: key, maxRetries: 0 });
  const { response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] }).withResponse();
  const requestId = response.headers.get('x-request-id') ?? '';
  await gw!.gateway.recorder.flush();
  return rowOf(requestId);
}

describe('recorded cost against the published prices', () => {
  it('OpenAI gpt-5: cache reads at the cached-input price, reasoning tokens once as output', async () => {
    gw = await startGateway({ channels: channels() });
    const row = await ask('gpt-5');
    expect([row.input_tokens, row.cache_read_tokens, row.output_tokens, row.reasoning_tokens]).toEqual([10_000, 6_000, 2_000, 500]);
    // 4,000 × $1.25 + 6,000 × $0.125 + 2,000 × $10 per million = $0.005 + $0.00075 + $0.02 = $0.02575.
    expect(row.cost_nusd).toBe(25_750_000);
    expect(row.unpriced).toBe(0);
  });

  it('Anthropic claude-sonnet-4-5 above 200k input tokens: the whole call at the long-context rates', async () => {
    gw = await startGateway({ channels: channels() });
    const row = await ask('claude-sonnet-4-5');
    // 150,000 uncached + 40,000 cache reads + 20,000 cache writes = 210,000 input tokens > 200,000.
    expect([row.input_tokens, row.cache_read_tokens, row.cache_write_tokens, row.output_tokens]).toEqual([210_000, 40_000, 20_000, 1_000]);
    // 150,000 × $6 + 40,000 × $0.60 + 20,000 × $7.50 + 1,000 × $22.50 per million
    // = $0.9 + $0.024 + $0.15 + $0.0225 = $1.0965.
    expect(row.cost_nusd).toBe(1_096_500_000);
  });

  it('Google gemini-2.5-pro below and above 200k prompt tokens, with cached content and thinking', async () => {
    gw = await startGateway({ channels: channels() });
    geminiUsage = {
      promptTokenCount: 120_000,
      cachedContentTokenCount: 20_000,
      candidatesTokenCount: 1_500,
      thoughtsTokenCount: 500,
      totalTokenCount: 122_000,
    };
    const below = await ask('gemini-2.5-pro');
    expect([below.input_tokens, below.cache_read_tokens, below.output_tokens, below.reasoning_tokens]).toEqual([120_000, 20_000, 2_000, 500]);
    // 100,000 × $1.25 + 20,000 × $0.125 + 2,000 × $10 per million = $0.125 + $0.0025 + $0.02 = $0.1475.
    expect(below.cost_nusd).toBe(147_500_000);
    geminiUsage = {
      promptTokenCount: 250_000,
      cachedContentTokenCount: 50_000,
      candidatesTokenCount: 1_500,
      thoughtsTokenCount: 500,
      totalTokenCount: 252_000,
    };
    const above = await ask('gemini-2.5-pro');
    // 200,000 × $2.50 + 50,000 × $0.25 + 2,000 × $15 per million = $0.5 + $0.0125 + $0.03 = $0.5425.
    expect(above.cost_nusd).toBe(542_500_000);
  });
});

describe('a model without a price', () => {
  it('is recorded unpriced (not a silent zero) and counted as such in usage reports and metrics', async () => {
    const token = 'usage-cost-metrics-token-0123456789';
    gw = await startGateway({ channels: channels(), metrics: { enabled: true, token } });
    const row = await ask('private-model');
    expect(row.cost_nusd).toBe(0);
    expect(row.unpriced).toBe(1);
    const scraped = await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    // A model the catalog does not list is labelled `other` (labels never come from client input).
    expect(scraped).toMatch(/^gengate_unpriced_calls_total\{model="other",channel="openai"\} 1$/m);
    await ask('gpt-5');
    const report = await new UsageReports(gw.gateway.store.db).summarize({ from: Date.now() - 60_000, to: Date.now(), groupBy: 'model' });
    expect(report.totals.requests).toBe(2);
    expect(report.totals.unpriced).toBe(1);
    expect(report.rows.find((r) => r.group === 'private-model')?.unpriced).toBe(1);
    expect(report.rows.find((r) => r.group === 'gpt-5')?.unpriced).toBe(0);
  });

  it('is refused to a key under a budget with a clear 403, and allowed when the operator says so', async () => {
    const rules = new StaticRuleSource();
    gw = await startGateway({ channels: channels(), admission: { rules, counters: new FakeCounterStore() } });
    const { key, record } = await createApiKey(gw.gateway.keys, { name: 'budgeted' });
    rules.set({ budgets: [{ scope: 'key', subject: record.id, limitNusd: 5_000_000_000 }] });
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: key, maxRetries: 0 });
    const refused = await client.chat.completions
      .create({ model: 'private-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).code).toBe('model_unpriced');
    expect((refused as Error).message).toMatch(/no price/);
    // A priced model is still fine for the same key.
    expect((await ask('gpt-5', key)).cost_nusd).toBe(25_750_000);
    await gw.close();

    gw = await startGateway({ channels: channels(), admission: { rules, counters: new FakeCounterStore() }, admissionSettings: { allowUnpriced: true } });
    const allowed = await createApiKey(gw.gateway.keys, { name: 'budgeted' });
    rules.set({ budgets: [{ scope: 'key', subject: allowed.record.id, limitNusd: 5_000_000_000 }] });
    expect((await ask('private-model', allowed.key)).unpriced).toBe(1);
  });
});
