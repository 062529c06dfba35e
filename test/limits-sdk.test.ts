/**
 * Rate limits and budgets through real HTTP with the official SDKs: refusals in each dialect's
 * own shape (OpenAI `requests` / `tokens` / `insufficient_quota`, Anthropic `rate_limit_error`,
 * Gemini `RESOURCE_EXHAUSTED`, a task family's envelope) with `Retry-After`, rate-limit headers on
 * answers and refusals (none without a rule), token estimates settled to the real count,
 * concurrency, a budget that is never overrun, and the `openai` SDK's own retry.
 */
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from '../src/admin/setup-links.js';
import { createApiKey } from '../src/auth/key-admin.js';
import { anthropicUpChannel, geminiUpChannel, openaiUpChannel, startFakeUpstreams, type FakeUpstreams } from './helpers/fake-channels.js';
import { FakeCounterStore, StaticRuleSource } from './helpers/fake-counter-store.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let upstreams: FakeUpstreams;
let gw: RunningGateway;
const rules = new StaticRuleSource();
const counters = new FakeCounterStore();

beforeAll(async () => {
  upstreams = await startFakeUpstreams();
  gw = await startGateway({
    channels: [openaiUpChannel(upstreams.openai), anthropicUpChannel(upstreams.anthropic), geminiUpChannel(upstreams.gemini)],
    admission: { rules, counters },
    sandbox: { taskMs: 100 },
  });
});
afterAll(async () => {
  await gw.close();
  await upstreams.close();
});

/** A fresh key (its own counters) and its id for rules. */
async function newKey(): Promise<{ key: string; id: string }> {
  const { key, record } = await createApiKey(gw.gateway.keys, { name: `limits-${Math.random()}` });
  return { key, id: record.id };
}

const openai = (key: string, maxRetries = 0) => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: key, maxRetries });
const ask = { model: 'textmodel-b-4o', messages: [{ role: 'user' as const, content: 'ping' }] };

async function refusalOf(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('requests per minute', () => {
  it('OpenAI: answers carry x-ratelimit-* and the refusal is a 429 of type requests with Retry-After', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'requests_per_minute', limit: 2 }] });
    const first = await openai(key).chat.completions.create(ask).withResponse();
    expect(first.response.headers.get('x-ratelimit-limit-requests')).toBe('2');
    expect(first.response.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(first.response.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+m)?\d+(\.\d+)?s$|^\d+ms$/);
    // A stream gets them before its first byte.
    const streamed = await openai(key)
      .chat.completions.create({ ...ask, stream: true })
      .withResponse();
    expect(streamed.response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    for await (const _ of streamed.data) {
      // drained
    }
    const refused = await refusalOf(openai(key).chat.completions.create(ask));
    expect(refused.status).toBe(429);
    expect(refused.type).toBe('requests');
    expect(refused.code).toBe('rate_limit_exceeded');
    expect(refused.message).toContain('key requests per minute (2)');
    expect(Number(refused.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
  });

  it('Anthropic: anthropic-ratelimit-* on the answer, 429 rate_limit_error on the refusal', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'requests_per_minute', limit: 1 }] });
    const client = new Anthropic({ baseURL: gw.url, apiKey: key, maxRetries: 0 });
    const request = { model: 'textmodel-a-sonnet-4-20250514', max_tokens: 50, messages: [{ role: 'user' as const, content: 'ping' }] };
    const { response } = await client.messages.create(request).withResponse();
    expect(response.headers.get('anthropic-ratelimit-requests-limit')).toBe('1');
    expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    const reset = response.headers.get('anthropic-ratelimit-requests-reset') ?? '';
    expect(reset).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(reset)).toBeGreaterThan(Date.now() - 1000);
    expect(response.headers.get('x-ratelimit-limit-requests')).toBeNull();
    const error = await client.messages.create(request).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const refused = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect((refused.error as { error: { type: string; message: string } }).error.type).toBe('rate_limit_error');
    expect((refused.error as { error: { message: string } }).error.message).toContain('key requests per minute (1)');
    expect(Number(refused.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('Gemini: 429 RESOURCE_EXHAUSTED naming the limit', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'requests_per_minute', limit: 1 }] });
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.url } });
    const request = { model: 'textmodel-c-2.5-flash', contents: 'ping' };
    const answer = await ai.models.generateContent(request);
    expect(answer.text).toBeTruthy();
    const error = await ai.models.generateContent(request).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).message).toContain('RESOURCE_EXHAUSTED');
    expect((error as ApiError).message).toContain('key requests per minute (1)');
  });

  it('no header at all when no rule applies to the key', async () => {
    const { id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'requests_per_minute', limit: 5 }] });
    const other = await newKey();
    const { response } = await openai(other.key).chat.completions.create(ask).withResponse();
    for (const name of response.headers.keys()) expect(name).not.toMatch(/ratelimit/);
  });

  it('an account rule with a model pattern overrides its pattern-less rule for the models it matches', async () => {
    const account = newAccount(`acct-${Math.random()}@example.com`, 'member');
    await gw.gateway.accounts.insert(account);
    const { key } = await createApiKey(gw.gateway.keys, { name: 'acct-key', accountId: account.id });
    rules.set({
      limits: [
        { scope: 'account', subject: account.id, kind: 'requests_per_minute', limit: 1 },
        { scope: 'account', subject: account.id, model: 'textmodel-b-*', kind: 'requests_per_minute', limit: 3 },
      ],
    });
    const { response } = await openai(key).chat.completions.create(ask).withResponse();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('3');
    await openai(key).chat.completions.create(ask);
    await openai(key).chat.completions.create(ask);
    const refused = await refusalOf(openai(key).chat.completions.create(ask));
    expect(refused.message).toContain('account requests per minute for textmodel-b-* (3)');
  });

  it('the openai SDK waits Retry-After and its retry succeeds (a one-second window)', async () => {
    const quick = new FakeCounterStore({ windowMs: 1000 });
    const quickRules = new StaticRuleSource();
    const own = await startGateway({ channels: [openaiUpChannel(upstreams.openai)], admission: { rules: quickRules, counters: quick } });
    try {
      const { key, record } = await createApiKey(own.gateway.keys, { name: 'retry' });
      quickRules.set({ limits: [{ scope: 'key', subject: record.id, kind: 'requests_per_minute', limit: 1 }] });
      const client = new OpenAI({ baseURL: `${own.url}/v1`, apiKey: key, maxRetries: 1 });
      await client.chat.completions.create(ask);
      const started = Date.now();
      const retried = await client.chat.completions.create(ask).withResponse();
      expect(retried.data.choices[0].message.content).toBeTruthy();
      // It was refused once, then waited the second Retry-After said.
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      await own.gateway.recorder.flush();
      const rows = await own.gateway.usage.recent(10, record.id);
      const refusals = rows.filter((row) => row.outcome === 'rate_limit');
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatchObject({ channel: '', refusal: 'key requests per minute (1)' });
    } finally {
      await own.close();
    }
  });
});

describe('tokens per minute', () => {
  it('reserves input + the output cap, settles to the real count, and refuses an estimate above the limit without Retry-After', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'tokens_per_minute', limit: 1000 }] });
    const before = counters.admits.length;
    const first = await openai(key)
      .chat.completions.create({ ...ask, max_tokens: 100 })
      .withResponse();
    const firstHold = counters.admits[before].holds.find((hold) => hold.counter.includes('tokens_per_minute'));
    expect(firstHold?.type).toBe('rate');
    const estimate = firstHold?.type === 'rate' ? firstHold.amount : 0;
    // The input counted locally (a few tokens for "ping") plus the request's own cap.
    expect(estimate).toBeGreaterThan(100);
    expect(estimate).toBeLessThan(130);
    expect(first.response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(1000 - estimate));
    const real = (first.data.usage?.prompt_tokens ?? 0) + (first.data.usage?.completion_tokens ?? 0);
    const second = await openai(key)
      .chat.completions.create({ ...ask, max_tokens: 100 })
      .withResponse();
    // The first call now counts what it really used, the second its estimate.
    expect(second.response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(1000 - real - estimate));
    const refused = await refusalOf(openai(key).chat.completions.create({ ...ask, max_tokens: 2000 }));
    expect(refused.status).toBe(429);
    expect(refused.type).toBe('tokens');
    expect(refused.message).toContain('key tokens per minute (1000)');
    expect(refused.headers?.get('retry-after')).toBeNull();
  });

  it('a call without a tokens or budget rule takes no token hold', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'requests_per_minute', limit: 10 }] });
    const before = counters.admits.length;
    await openai(key).chat.completions.create(ask);
    expect(counters.admits[before].holds.map((hold) => hold.type)).toEqual(['rate']);
  });
});

describe('concurrent requests', () => {
  it('a limit of 2 with 3 concurrent streams refuses exactly one, and frees the slots when they end', async () => {
    const slowRules = new StaticRuleSource();
    const slowCounters = new FakeCounterStore();
    const slow = await startGateway({ sandbox: { tokensPerSecond: 40, firstTokenDelayMs: 0 }, admission: { rules: slowRules, counters: slowCounters } });
    try {
      const { key, record } = await createApiKey(slow.gateway.keys, { name: 'concurrent' });
      slowRules.set({ limits: [{ scope: 'key', subject: record.id, kind: 'concurrent_requests', limit: 2 }] });
      const client = new OpenAI({ baseURL: `${slow.url}/v1`, apiKey: key, maxRetries: 0 });
      const run = async () => {
        const stream = await client.chat.completions.create({
          model: 'textmodel-b-4o',
          stream: true,
          messages: [{ role: 'user', content: 'tell me a story' }],
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        return text;
      };
      const results = await Promise.allSettled([run(), run(), run()]);
      const refused = results.filter((result) => result.status === 'rejected');
      expect(refused).toHaveLength(1);
      const error = (refused[0] as PromiseRejectedResult).reason as InstanceType<typeof OpenAI.APIError>;
      expect(error.status).toBe(429);
      expect(error.message).toContain('key concurrent requests (2)');
      expect(Number(error.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(results.filter((result) => result.status === 'fulfilled' && result.value.length > 0)).toHaveLength(2);
      // Both slots are free again.
      expect((await Promise.allSettled([run(), run()])).every((result) => result.status === 'fulfilled')).toBe(true);
    } finally {
      await slow.close();
    }
  });
});

describe('budgets', () => {
  it('refuses with insufficient_quota naming the budget before spend passes it', async () => {
    const { key, id } = await newKey();
    // 0.0002 USD on a model priced 2.5 / 10 USD per million tokens: a handful of small calls.
    const limitNusd = 200_000;
    rules.set({ budgets: [{ scope: 'key', subject: id, limitNusd }] });
    let refused: InstanceType<typeof OpenAI.APIError> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      try {
        await openai(key).chat.completions.create({ ...ask, max_tokens: 5 });
      } catch (error) {
        refused = error as InstanceType<typeof OpenAI.APIError>;
      }
    }
    expect(refused?.status).toBe(429);
    expect(refused?.type).toBe('insufficient_quota');
    expect(refused?.code).toBe('insufficient_quota');
    expect(refused?.message).toMatch(/key monthly budget of \$0\.0002, resets \d{4}-\d\d-01T00:00:00Z/);
    await gw.gateway.recorder.flush();
    const rows = await gw.gateway.usage.recent(50, id);
    const spentNusd = rows.reduce((sum, row) => sum + row.cost_nusd, 0);
    expect(rows.filter((row) => row.outcome === 'ok').length).toBeGreaterThan(1);
    expect(spentNusd).toBeGreaterThan(0);
    expect(spentNusd).toBeLessThanOrEqual(limitNusd);
    expect(rows.filter((row) => row.outcome === 'insufficient_quota').map((row) => row.refusal)).toEqual(['key monthly budget of $0.0002']);
  });

  it('a budget that cannot be checked refuses with 503 budget_unavailable and Retry-After 1', async () => {
    const { key, id } = await newKey();
    rules.set({ budgets: [{ scope: 'key', subject: id, limitNusd: 1_000_000_000 }] });
    counters.failWith = new Error('counter store down');
    try {
      const refused = await refusalOf(openai(key).chat.completions.create(ask));
      expect(refused.status).toBe(503);
      expect(refused.code).toBe('budget_unavailable');
      expect(refused.headers?.get('retry-after')).toBe('1');
    } finally {
      counters.failWith = undefined;
    }
  });
});

describe('task families', () => {
  it('a task submit is a request: refused in the family envelope with Retry-After', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'task_submits_per_minute', limit: 1 }] });
    const submit = () =>
      fetch(`${gw.url}/imagegen1/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt: 'tiles', width: 64, height: 64 }),
      });
    const accepted = await submit();
    expect(accepted.status).toBeLessThan(300);
    const refused = await submit();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await refused.json()) as { title: string; detail: string; status: number };
    expect(body).toMatchObject({ title: 'Request was throttled', status: 429 });
    expect(body.detail).toContain('key task submits per minute (1)');
  });

  it('unfinished_tasks holds a slot until the task is terminal', async () => {
    const { key, id } = await newKey();
    rules.set({ limits: [{ scope: 'key', subject: id, kind: 'unfinished_tasks', limit: 1 }] });
    const submit = () =>
      fetch(`${gw.url}/imagegen1/create`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt: 'tiles', width: 64, height: 64 }),
      });
    const first = (await (await submit()).json()) as { id: string };
    expect((await submit()).status).toBe(429);
    for (let i = 0; i < 200; i++) {
      const record = (await (await fetch(`${gw.url}/imagegen1/task/${first.id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
        status: string;
      };
      if (record.status === 'succeeded' || record.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(counters.openReservations).not.toContain(first.id);
    expect((await submit()).status).toBeLessThan(300);
  });
});
