/**
 * Background responses (`background: true`) end to end through the `openai` SDK: created at once
 * as `queued` and polled to `completed` (sandbox and a fake Anthropic upstream), streamed and
 * resumed from a `starting_after` cursor after a disconnect with no event lost or repeated,
 * cancelled while a slow upstream streams (its call cut), and the refusals OpenAI answers
 * (`store: false`, cancelling a finished or foreground response, replaying one not streamed).
 */
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_ANTHROPIC_KEY, type FakeAnthropicUpstream, startFakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { type ScriptedStream, sseFrames } from './fakes/scripted-sse.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

const SANDBOX_MODEL = 'textmodel-b-4o-mini';
const ANTHROPIC_MODEL = 'textmodel-a-haiku-4-5-20251001';

let anthropic: FakeAnthropicUpstream;
let gw: RunningGateway;
let client: OpenAI;

beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
  gw = await startGateway({
    channels: [
      {
        name: 'anthropic-up',
        provider: 'anthropic',
        baseUrl: anthropic.url,
        apiKey: FAKE_ANTHROPIC_KEY,
        models: ['textmodel-a-*'],
        modelRewrite: [{ from: 'textmodel-a-', to: 'claude-' }],
      },
    ],
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
});

afterAll(async () => {
  await gw?.close();
  await anthropic?.close();
});

/** An Anthropic stream of `words` text deltas, one every `pauseMs`: an upstream that takes its time. */
function slowAnthropicAnswer(words: number, pauseMs: number): ScriptedStream {
  const deltas = Array.from({ length: words }, (_, i) => ({
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `word${i} ` } },
  }));
  return {
    pauseMs,
    pieces: sseFrames([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_slow',
            type: 'message',
            role: 'assistant',
            model: 'claude-haiku-4-5-20251001',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 7, output_tokens: 1 },
          },
        },
      },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      ...deltas,
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: words } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]),
  };
}

function slowText(words: number): string {
  return Array.from({ length: words }, (_, i) => `word${i} `).join('');
}

async function pollUntilDone(id: string, timeoutMs = 20_000): Promise<OpenAI.Responses.Response> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<string>();
  for (;;) {
    const response = await client.responses.retrieve(id);
    seen.add(response.status ?? '');
    if (response.status !== 'queued' && response.status !== 'in_progress') return response;
    if (Date.now() > deadline) throw new Error(`still ${response.status} after ${timeoutMs} ms (seen ${[...seen].join(', ')})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForStatus(id: string, status: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await client.responses.retrieve(id)).status !== status) {
    if (Date.now() > deadline) throw new Error(`never ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

async function usageRowsOf(requestId: string) {
  await gw.gateway.recorder.flush();
  return gw.gateway.store.db.selectFrom('usage_records').selectAll().where('request_id', 'like', `${requestId}%`).execute();
}

describe('background responses', () => {
  it('answers queued at once and is polled to completed on the sandbox, billed as one chat call', async () => {
    const { data: created, response } = await client.responses
      .create({ model: SANDBOX_MODEL, input: 'Say something about otters.', background: true })
      .withResponse();
    expect(created.status).toBe('queued');
    expect(created.background).toBe(true);
    expect(created.id).toMatch(/^resp_/);
    expect(created.output).toEqual([]);
    const done = await pollUntilDone(created.id);
    expect(done.status).toBe('completed');
    expect(done.background).toBe(true);
    expect(done.output_text.length).toBeGreaterThan(0);
    expect(done.usage?.output_tokens).toBeGreaterThan(0);
    const rows = await usageRowsOf(response.headers.get('x-request-id')!);
    expect(rows.map((row) => [row.surface, row.operation, row.outcome])).toEqual([['responses', 'chat', 'ok']]);
    expect(rows[0].output_tokens).toBe(done.usage?.output_tokens);
  });

  it('runs on a fake Anthropic upstream to the same answer a foreground response gets', async () => {
    const input = 'Tell me about the weather in Lisbon.';
    const foreground = await client.responses.create({ model: ANTHROPIC_MODEL, input });
    const created = await client.responses.create({ model: ANTHROPIC_MODEL, input, background: true });
    expect(created.status).toBe('queued');
    const done = await pollUntilDone(created.id);
    expect(done.status).toBe('completed');
    expect(done.output_text).toBe(foreground.output_text);
    expect(anthropic.requests.at(-1)?.body).toMatchObject({ model: 'claude-haiku-4-5-20251001', stream: true });
    // A follow-up continues it like any stored response.
    const next = await client.responses.create({ model: ANTHROPIC_MODEL, input: 'And tomorrow?', previous_response_id: done.id });
    expect(next.status).toBe('completed');
  });

  it('streams, and resumes after a disconnect from starting_after with no event lost or repeated', async () => {
    const words = 30;
    anthropic.replayNext(slowAnthropicAnswer(words, 40));
    const first: ResponseStreamEvent[] = [];
    const stream = await client.responses.create({ model: ANTHROPIC_MODEL, input: 'Count slowly.', background: true, stream: true });
    for await (const event of stream) {
      first.push(event);
      if (event.type === 'response.output_text.delta' && first.filter((e) => e.type === event.type).length === 5) break;
    }
    const created = first[0];
    expect(created.type).toBe('response.created');
    const id = (created as OpenAI.Responses.ResponseCreatedEvent).response.id;
    expect((created as OpenAI.Responses.ResponseCreatedEvent).response.status).toBe('queued');
    // The run goes on without the client.
    await waitForStatus(id, 'completed');
    const cursor = first.at(-1)!.sequence_number;
    const rest: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true, starting_after: cursor })) rest.push(event);
    const all = [...first, ...rest];
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    expect(rest[0].sequence_number).toBe(cursor + 1);
    const last = all.at(-1)!;
    expect(last.type).toBe('response.completed');
    const deltas = all.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    expect(deltas.join('')).toBe(slowText(words));
    expect((last as OpenAI.Responses.ResponseCompletedEvent).response.output_text ?? slowText(words)).toBe(slowText(words));
    // A replay from the start gives the same events again.
    const replay: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true })) replay.push(event);
    expect(replay).toEqual(all);
  });

  it('a live resume follows events as the run stores them', async () => {
    const words = 25;
    anthropic.replayNext(slowAnthropicAnswer(words, 40));
    const created = await client.responses.create({ model: ANTHROPIC_MODEL, input: 'Count slowly.', background: true, stream: true });
    let id = '';
    for await (const event of created) {
      if (event.type === 'response.created') id = event.response.id;
      break;
    }
    const rest: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true, starting_after: 0 })) rest.push(event);
    expect(rest[0].sequence_number).toBe(1);
    expect(rest.map((e) => e.sequence_number)).toEqual(rest.map((_, i) => i + 1));
    expect(rest.at(-1)?.type).toBe('response.completed');
    expect(rest.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')).toBe(slowText(words));
  });

  it('cancels a slow run: the upstream call is cut, the stream ends cancelled, and cancelling again answers the same', async () => {
    anthropic.replayNext(slowAnthropicAnswer(200, 100));
    const { data: stream, response } = await client.responses
      .create({ model: ANTHROPIC_MODEL, input: 'Take your time.', background: true, stream: true })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const events: ResponseStreamEvent[] = [];
    let cancelled: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'response.output_text.delta' && !cancelled) {
        const id = (events[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;
        cancelled = await client.responses.cancel(id);
      }
    }
    expect(cancelled?.status).toBe('cancelled');
    expect(cancelled?.output).toEqual([]);
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(last.type).toBe('response.failed');
    expect(last.response.status).toBe('cancelled');
    expect(events.filter((e) => e.type === 'response.output_text.delta').length).toBeLessThan(50);
    const id = cancelled!.id;
    expect(await client.responses.cancel(id)).toMatchObject({ id, status: 'cancelled' });
    expect((await client.responses.retrieve(id)).status).toBe('cancelled');
    // The upstream call was aborted: its usage row is a cut call's, not a finished answer's.
    await expect.poll(async () => (await usageRowsOf(requestId)).map((row) => row.outcome)).not.toEqual([]);
    const rows = await usageRowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0].outcome).not.toBe('ok');
  });

  it('cancels a queued or running response created without stream', async () => {
    anthropic.replayNext(slowAnthropicAnswer(100, 100));
    const created = await client.responses.create({ model: ANTHROPIC_MODEL, input: 'Slowly.', background: true });
    const cancelled = await client.responses.cancel(created.id);
    expect(cancelled).toMatchObject({ id: created.id, status: 'cancelled', output: [] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await client.responses.retrieve(created.id)).status).toBe('cancelled');
  });

  it('a response deleted while it runs is not brought back when the run ends', async () => {
    anthropic.replayNext(slowAnthropicAnswer(10, 60));
    const created = await client.responses.create({ model: ANTHROPIC_MODEL, input: 'Slowly.', background: true });
    await waitForStatus(created.id, 'in_progress');
    await client.responses.delete(created.id);
    // Longer than the slow answer takes.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses what OpenAI refuses', async () => {
    await expect(client.responses.create({ model: SANDBOX_MODEL, input: 'hi', background: true, store: false })).rejects.toMatchObject({
      status: 400,
      param: 'background',
    });
    const done = await pollUntilDone((await client.responses.create({ model: SANDBOX_MODEL, input: 'hi', background: true })).id);
    await expect(client.responses.cancel(done.id)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Cannot cancel a completed response.'),
    });
    // Created without stream: nothing to replay.
    await expect(client.responses.retrieve(done.id, { stream: true })).rejects.toMatchObject({ status: 400, param: 'stream' });
    const foreground = await client.responses.create({ model: SANDBOX_MODEL, input: 'hi' });
    await expect(client.responses.cancel(foreground.id)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('synchronous') });
    await expect(client.responses.retrieve(foreground.id, { stream: true })).rejects.toMatchObject({ status: 400, param: 'stream' });
    await expect(client.responses.cancel('resp_unknown')).rejects.toMatchObject({ status: 404 });
    const res = await fetch(`${gw.url}/v1/responses/${done.id}?stream=true&starting_after=-3`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'starting_after' } });
  });

  it("runs with an item_reference to an earlier response's item (no previous_response_id); another key's is the client's 400", async () => {
    const earlier = await client.responses.create({ model: SANDBOX_MODEL, input: 'Remember the otters.' });
    const input = [
      { type: 'item_reference' as const, id: earlier.output[0].id as string },
      { role: 'user' as const, content: 'And now?' },
    ];
    const created = await client.responses.create({ model: SANDBOX_MODEL, input, background: true });
    const done = await pollUntilDone(created.id);
    expect(done.status).toBe('completed');
    expect((await client.responses.inputItems.list(done.id, { order: 'asc' })).data[0]).toMatchObject({ id: earlier.output[0].id, role: 'assistant' });
    const other = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: await gw.createKey({ name: 'stranger' }), maxRetries: 0 });
    await expect(other.responses.create({ model: SANDBOX_MODEL, input, background: true })).rejects.toMatchObject({ status: 400, param: 'input[0].id' });
  });

  it("another account's background response is unknown to cancel and replay", async () => {
    const created = await client.responses.create({ model: SANDBOX_MODEL, input: 'mine', background: true, stream: false });
    // A key without an account owns its own responses.
    const otherKey = await gw.createKey({ name: 'other' });
    const other = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: otherKey, maxRetries: 0 });
    await expect(other.responses.cancel(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.retrieve(created.id, { stream: true })).rejects.toMatchObject({ status: 404 });
  });
});
