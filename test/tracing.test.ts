/**
 * Traces end to end: a real gateway with the OTLP/HTTP exporter pointed (through the standard
 * OTEL_* variables) at a receiver in the test, which decodes what the exporter sends. One span
 * per call, one child per upstream attempt (failover shows two), GenAI attributes, the client's
 * `traceparent` continued and the attempt's sent upstream, no content by default, task polls
 * and finish linked to the submit; and nothing at all when the variables are not set.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_OPENAI_API_KEY, type FakeOpenAIUpstream, startFakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type ChannelSpec, type RunningGateway, type StartOptions, startGateway } from './helpers/start-gateway.js';

let receiver: OtlpReceiver;
let primary: FakeOpenAIUpstream;
let backup: FakeOpenAIUpstream;
let gw: RunningGateway | undefined;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  primary = await startFakeOpenAIUpstream();
  backup = await startFakeOpenAIUpstream();
});
afterAll(async () => {
  await receiver.close();
  await primary.close();
  await backup.close();
});
afterEach(async () => {
  await gw?.close();
  gw = undefined;
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_SERVICE_NAME;
  receiver.spans.length = 0;
  receiver.bodies.length = 0;
  primary.requests.length = 0;
  backup.requests.length = 0;
});

function channels(primaryModel: string): ChannelSpec[] {
  return [
    {
      name: 'primary',
      provider: 'openai',
      baseUrl: primary.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['textmodel-b-*'],
      modelMap: { 'textmodel-b-4o': primaryModel },
      priority: 10,
    },
    {
      name: 'backup',
      provider: 'openai',
      baseUrl: backup.url,
      apiKey: FAKE_OPENAI_API_KEY,
      models: ['textmodel-b-*'],
      modelRewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
      priority: 0,
    },
  ];
}

async function tracedGateway(options: StartOptions): Promise<RunningGateway> {
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  process.env.OTEL_SERVICE_NAME = 'gengate-under-test';
  return startGateway(options);
}

async function chat(content: string, headers: Record<string, string> = {}, stream = false): Promise<Response> {
  const response = await fetch(`${gw!.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw!.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'textmodel-b-4o', messages: [{ role: 'user', content }], stream }),
  });
  await response.text();
  return response;
}

/** Closes the gateway (its close flushes the exporter) and returns what the receiver decoded. */
async function exported(): Promise<ReceivedSpan[]> {
  await gw!.close();
  gw = undefined;
  return receiver.spans;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

describe('traces', () => {
  it('one call span continuing the client trace, one attempt child per channel tried, each sent upstream as traceparent', async () => {
    gw = await tracedGateway({ channels: channels('fail-503') });
    const clientTrace = hex(16);
    const clientSpan = hex(8);
    const response = await chat('ping', { traceparent: `00-${clientTrace}-${clientSpan}-01` });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-channel')).toBe('backup');
    const spans = await exported();

    const calls = spans.filter((span) => span.kind === 2);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.traceId).toBe(clientTrace);
    expect(call.parentSpanId).toBe(clientSpan);
    expect(call.name).toBe('chat textmodel-b-4o');
    expect(call.resource['service.name']).toBe('gengate-under-test');
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'textmodel-b-4o',
      'gen_ai.response.model': 'gpt-4o',
      'gen_ai.provider.name': 'openai',
      'gengate.surface': 'openai',
      'gengate.channel': 'backup',
      'gengate.attempts': 2,
      'gengate.outcome': 'ok',
    });
    expect(call.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(call.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    expect(call.attributes['gengate.key.id']).toMatch(/\S/);
    expect(JSON.stringify(call.attributes)).not.toContain(gw?.key ?? 'no key is in a span');
    expect(call.statusCode).not.toBe(2);

    const attempts = spans
      .filter((span) => span.parentSpanId === call.spanId)
      .sort((a, b) => Number(a.attributes['gengate.attempt']) - Number(b.attributes['gengate.attempt']));
    expect(attempts.map((span) => [span.kind, span.attributes['gengate.channel'], span.traceId])).toEqual([
      [3, 'primary', clientTrace],
      [3, 'backup', clientTrace],
    ]);
    expect(attempts[0].statusCode).toBe(2);
    expect(attempts[0].attributes['error.type']).toBe('upstream.overloaded');
    expect(attempts[1].statusCode).not.toBe(2);
    expect(attempts[1].attributes['gen_ai.request.model']).toBe('gpt-4o');

    expect(primary.requests[0].headers.traceparent).toBe(`00-${clientTrace}-${attempts[0].spanId}-01`);
    expect(backup.requests[0].headers.traceparent).toBe(`00-${clientTrace}-${attempts[1].spanId}-01`);
  });

  it('starts a trace of its own without a traceparent, or with a malformed one', async () => {
    gw = await tracedGateway({ channels: channels('gpt-4o') });
    await chat('one');
    await chat('two', { traceparent: '00-not-a-trace-01' });
    const calls = (await exported()).filter((span) => span.kind === 2);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.parentSpanId).toBeUndefined();
      expect(call.traceId).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(calls[0].traceId).not.toBe(calls[1].traceId);
  });

  it('marks a failed call with error.type and an error status', async () => {
    gw = await tracedGateway({ channels: channels('fail-400').slice(0, 1) });
    const response = await chat('ping');
    expect(response.status).toBe(400);
    const [call] = (await exported()).filter((span) => span.kind === 2);
    expect(call.statusCode).toBe(2);
    expect(call.attributes['error.type']).toBe('upstream.refused');
    expect(call.attributes['gengate.outcome']).toBe('invalid_request');
  });

  it('keeps prompts and completions out of spans by default', async () => {
    gw = await tracedGateway({ channels: channels('gpt-4o') });
    await chat('zebra-prompt-7431');
    await chat('zebra-prompt-7432', {}, true);
    const spans = await exported();
    expect(spans.filter((span) => span.kind === 2)).toHaveLength(2);
    for (const body of receiver.bodies) expect(body).not.toContain('zebra-prompt');
    expect(spans.flatMap((span) => span.events.map((event) => event.name))).not.toContain('gen_ai.content.prompt');
  });

  it('records the prompt as a bounded span event when tracing.captureContent is on', async () => {
    gw = await tracedGateway({ channels: channels('gpt-4o'), tracing: { captureContent: true, contentMaxChars: 200 } });
    await chat(`zebra-prompt-7433 ${'x'.repeat(1000)}`);
    const [call] = (await exported()).filter((span) => span.kind === 2);
    const event = call.events.find((candidate) => candidate.name === 'gen_ai.content.prompt');
    const prompt = String(event?.attributes['gen_ai.prompt']);
    expect(prompt).toContain('zebra-prompt-7433');
    expect(prompt.length).toBeLessThanOrEqual(201);
  });

  it('links every poll and the finish of a task to the span of its submit', async () => {
    gw = await tracedGateway({ sandbox: { taskMs: 300 } });
    const submitted = await fetch(`${gw.url}/imgtask/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a lighthouse at dawn' }),
    });
    const taskId = ((await submitted.json()) as { result: string }).result;
    let status = '';
    for (let i = 0; i < 200 && status !== 'SUCCESS' && status !== 'FAILURE'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const record = await fetch(`${gw.url}/imgtask/task/${taskId}/fetch`, { headers: { authorization: `Bearer ${gw.key}` } });
      status = ((await record.json()) as { status: string }).status;
    }
    expect(status).toBe('SUCCESS');
    const spans = await exported();
    const submit = spans.find((span) => span.kind === 2 && span.attributes['gengate.task.id'] === taskId);
    expect(submit?.attributes['gengate.operation']).toBe('image.imagine');
    const polls = spans.filter((span) => span.name === 'task.poll' && span.attributes['gengate.task.id'] === taskId);
    const finishes = spans.filter((span) => span.name === 'task.finish' && span.attributes['gengate.task.id'] === taskId);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(finishes).toHaveLength(1);
    expect(finishes[0].attributes['gengate.task.status']).toBe('succeeded');
    for (const span of [...polls, ...finishes]) {
      expect(span.links).toEqual([{ traceId: submit!.traceId, spanId: submit!.spanId, attributes: { 'gengate.link': 'task.submit' } }]);
    }
  });
});

describe('traces with the collector away', () => {
  it('answers every call all the same', async () => {
    // A port nothing listens on: the exporter's posts fail.
    const away = await startOtlpReceiver();
    await away.close();
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = away.url;
    gw = await startGateway({ channels: channels('gpt-4o') });
    expect(gw.gateway.tracing).toBeDefined();
    for (let i = 0; i < 3; i++) expect((await chat('ping')).status).toBe(200);
    const closing = Date.now();
    await gw.close();
    gw = undefined;
    expect(primary.requests).toHaveLength(3);
    // The last spans are waited for a few seconds at most.
    expect(Date.now() - closing).toBeLessThan(6_000);
  });
});

describe('traces off', () => {
  it('installs nothing and sends no traceparent upstream when no OTLP endpoint is set', async () => {
    gw = await startGateway({ channels: channels('gpt-4o') });
    expect(gw.gateway.tracing).toBeUndefined();
    await chat('ping', { traceparent: `00-${hex(16)}-${hex(8)}-01` });
    expect(primary.requests).toHaveLength(1);
    expect(primary.requests[0].headers.traceparent).toBeUndefined();
    await gw.close();
    gw = undefined;
    expect(receiver.bodies).toHaveLength(0);
  });
});
