/**
 * `/metrics` after a known mix of calls: each chat surface, embeddings, a failover, a refused
 * key, a stream the client cut and a task. The counters move by exactly what happened, the
 * histograms count every call once, the text is valid Prometheus exposition, and every answer
 * carries its timing headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_OPENAI_API_KEY, type FakeOpenAIUpstream, startFakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { type Exposition, parsePrometheusText } from './helpers/prometheus-text.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

const TOKEN = 'metrics-token-0123456789';
let upstream: FakeOpenAIUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream();
  gw = await startGateway({
    metrics: { enabled: true, token: TOKEN },
    sandbox: { tokensPerSecond: 20, firstTokenDelayMs: 0, taskMs: 200 },
    channels: [
      // textmodel-b-4o fails on the primary (503) and is answered by the backup: one failover.
      {
        name: 'primary',
        provider: 'openai',
        baseUrl: '',
        apiKey: FAKE_OPENAI_API_KEY,
        options: { responsesApi: false },
        models: ['textmodel-b-*'],
        modelMap: { 'textmodel-b-4o': 'fail-503' },
        priority: 10,
      },
      {
        name: 'backup',
        provider: 'openai',
        baseUrl: '',
        apiKey: FAKE_OPENAI_API_KEY,
        options: { responsesApi: false },
        models: ['textmodel-b-*'],
        priority: 0,
      },
      { name: 'sandbox', provider: 'sandbox', models: ['textmodel-a-*', 'text-embedding-3-small', 'imgtask-*'] },
    ].map((channel) => (channel.provider === 'openai' ? { ...channel, baseUrl: upstream.url } : channel)),
  });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function scrape(): Promise<Exposition> {
  const response = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'ping' }], ...extra });

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('/metrics after a known mix of calls', () => {
  let before: Exposition;
  let after: Exposition;
  const answers: Response[] = [];

  beforeAll(async () => {
    before = await scrape();
    // Each surface once, on the primary channel.
    answers.push(await post('/v1/chat/completions', chat('textmodel-b-4o-mini')));
    answers.push(await post('/v1/messages', { ...chat('textmodel-b-4o-mini'), max_tokens: 16 }, { 'anthropic-version': '2023-06-01' }));
    answers.push(
      await post(
        '/v1beta/models/textmodel-b-4o-mini:generateContent',
        { contents: [{ role: 'user', parts: [{ text: 'ping' }] }] },
        { 'x-goog-api-key': gw.key },
      ),
    );
    answers.push(await post('/v1/responses', { model: 'textmodel-b-4o-mini', input: 'ping', store: false }));
    answers.push(await post('/v1/embeddings', { model: 'text-embedding-3-small', input: 'ping' }));
    // A failover: the primary answers 503, the backup answers.
    answers.push(await post('/v1/chat/completions', chat('textmodel-b-4o')));
    // A refused key: never a call.
    answers.push(await post('/v1/chat/completions', chat('textmodel-b-4o-mini'), { authorization: 'Bearer gg-not-a-key' }));
    // A stream the client cuts after its first chunk.
    const cut = new AbortController();
    const stream = await post('/v1/chat/completions', chat('textmodel-a-haiku-4-5-20251001', { stream: true, max_tokens: 200 }), {});
    answers.push(stream);
    const reader = stream.body!.getReader();
    await reader.read();
    await reader.cancel();
    cut.abort();
    // A task: imagine, until it is done.
    const submitted = await post('/imgtask/submit/imagine', { prompt: 'a lighthouse' });
    const task = (await submitted.json()) as { result: string };
    await until(async () => {
      const record = (await (await fetch(`${gw.url}/imgtask/task/${task.result}/fetch`, { headers: { authorization: `Bearer ${gw.key}` } })).json()) as {
        status: string;
      };
      return record.status === 'SUCCESS' || record.status === 'FAILURE';
    }, 'the task');
    await until(async () => (await scrape()).value('gengate_streams_open') === 0, 'the cut stream to end');
    after = await scrape();
  }, 30_000);

  const delta = (name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels);
  const deltaSum = (name: string, labels: Record<string, string> = {}) => after.sum(name, labels) - before.sum(name, labels);

  it('answers each call as a client expects', () => {
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200, 401, 200]);
  });

  it('counts each call once, by surface, operation, model, channel and status class', () => {
    const ok = { status_class: '2xx' };
    expect(delta('gengate_requests_total', { surface: 'openai', operation: 'chat', model: 'textmodel-b-4o-mini', channel: 'primary', ...ok })).toBe(1);
    expect(delta('gengate_requests_total', { surface: 'anthropic', operation: 'chat', model: 'textmodel-b-4o-mini', channel: 'primary', ...ok })).toBe(1);
    expect(delta('gengate_requests_total', { surface: 'gemini', operation: 'chat', model: 'textmodel-b-4o-mini', channel: 'primary', ...ok })).toBe(1);
    expect(delta('gengate_requests_total', { surface: 'responses', operation: 'chat', model: 'textmodel-b-4o-mini', channel: 'primary', ...ok })).toBe(1);
    expect(delta('gengate_requests_total', { surface: 'openai', operation: 'embed', model: 'text-embedding-3-small', channel: 'sandbox', ...ok })).toBe(1);
    expect(delta('gengate_requests_total', { surface: 'openai', operation: 'chat', model: 'textmodel-b-4o', channel: 'backup', ...ok })).toBe(1);
    expect(delta('gengate_requests_total', { surface: 'imgtask', channel: 'sandbox', ...ok })).toBe(1);
    expect(
      delta('gengate_requests_total', {
        surface: 'openai',
        model: 'textmodel-a-haiku-4-5-20251001',
        channel: 'sandbox',
        status_class: '4xx',
        error_type: 'client.closed',
      }),
    ).toBe(1);
    // Eight calls in all: the refused key made none.
    expect(deltaSum('gengate_requests_total')).toBe(8);
  });

  it('counts the failover: the failed attempt by its error type, the next attempt by its channel', () => {
    expect(delta('gengate_upstream_attempt_failures_total', { channel: 'primary', error_type: 'upstream.overloaded' })).toBe(1);
    expect(deltaSum('gengate_upstream_attempt_failures_total')).toBe(1);
    expect(delta('gengate_failover_attempts_total', { channel: 'backup' })).toBe(1);
    expect(deltaSum('gengate_failover_attempts_total')).toBe(1);
  });

  it('counts the refused key among the HTTP answers only', () => {
    expect(delta('gengate_http_responses_total', { route: '/v1/chat/completions', status_class: '4xx' })).toBe(1);
  });

  it('observes every call once in the GenAI duration histogram, and the token usage of the answered ones', () => {
    expect(deltaSum('gen_ai_client_operation_duration_seconds_count')).toBe(8);
    expect(delta('gen_ai_client_operation_duration_seconds_count', { gen_ai_request_model: 'textmodel-b-4o', gen_ai_provider_name: 'openai' })).toBe(1);
    expect(delta('gen_ai_client_operation_duration_seconds_count', { error_type: 'client.closed' })).toBe(1);
    expect(deltaSum('gen_ai_client_token_usage_count', { gen_ai_operation_name: 'chat', gen_ai_token_type: 'input' })).toBeGreaterThanOrEqual(5);
    // Only the translated stream reports its first token.
    expect(deltaSum('gen_ai_server_time_to_first_token_seconds_count')).toBe(1);
  });

  it('observes the gateway overhead once per answer that made a call, and upstream time per channel', () => {
    expect(delta('gengate_overhead_seconds_count', { surface: 'openai', operation: 'chat' })).toBe(3);
    expect(delta('gengate_upstream_duration_seconds_count', { channel: 'primary', outcome: 'error' })).toBe(1);
    expect(delta('gengate_upstream_duration_seconds_count', { channel: 'primary', outcome: 'ok' })).toBe(4);
    expect(delta('gengate_upstream_time_to_first_byte_seconds_count', { channel: 'backup' })).toBe(1);
  });

  it('shows circuits, queues and the journal at scrape time', () => {
    expect(after.value('gengate_channel_circuit_state', { channel: 'primary', state: 'closed' })).toBe(1);
    expect(after.value('gengate_channel_circuit_state', { channel: 'primary', state: 'open' })).toBe(0);
    expect(after.types.get('gengate_task_queue_depth')).toBe('gauge');
    expect(after.value('gengate_webhook_outbox_depth')).toBe(0);
    expect(after.value('gengate_streams_open')).toBe(0);
    expect(after.types.get('gengate_usage_journal_backlog')).toBe('gauge');
    expect(after.types.get('process_cpu_seconds_total')).toBe('counter');
  });

  it('puts the timing on every answer, the refused key included', () => {
    for (const answer of answers) {
      const overhead = Number(answer.headers.get('x-gengate-overhead-ms'));
      expect(overhead).toBeGreaterThanOrEqual(0);
      expect(answer.headers.get('server-timing')).toMatch(/^gateway;dur=[\d.]+/);
    }
    const failover = answers[5].headers.get('server-timing') ?? '';
    expect(failover).toMatch(/^gateway;dur=[\d.]+, upstream;dur=[\d.]+, ttfb;dur=[\d.]+$/);
    expect(answers[6].headers.get('server-timing')).toMatch(/^gateway;dur=[\d.]+$/);
  });
});

describe('the metrics token', () => {
  it('refuses a scrape without it, or with another', async () => {
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect((await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.key}` } })).status).toBe(401);
  });
});
