/**
 * imagegen1 through a `replicate` channel in task mode, against the fake Replicate, over real
 * HTTP: the prediction is created once and polled by the engine (not inside the request), the
 * record is Replicate-like with gateway URLs that outlive the vendor's, a signed Replicate
 * webhook wakes the task (a forged one is refused), the client webhook gets the final record,
 * cancel refunds once, and another key sees nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_REPLICATE_TOKEN, type FakeReplicateUpstream, startFakeReplicateUpstream } from '../fakes/fake-replicate-upstream.js';
import { signStandardWebhook } from '../fakes/standard-webhook-signature.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let gw: RunningGateway;
let replicate: FakeReplicateUpstream;

async function call(path: string, body?: unknown, key = gw.key): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function untilDone(id: string): Promise<Answer> {
  for (let i = 0; i < 300; i++) {
    const { json } = await call(`/imagegen1/task/${id}`);
    if (['succeeded', 'failed', 'canceled'].includes(json.status)) return json;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} did not finish`);
}

beforeAll(async () => {
  replicate = await startFakeReplicateUpstream({ processingMs: 300 });
  gw = await startGateway({
    media: { allowPrivateUrls: true },
    channels: [
      {
        name: 'replicate-tasks',
        provider: 'replicate',
        baseUrl: replicate.url,
        apiKey: FAKE_REPLICATE_TOKEN,
        models: ['*/*'],
        options: { pollIntervalMs: 100, webhookSecret: replicate.webhookSecret },
      },
    ],
  });
});
afterAll(async () => {
  await gw?.close();
  await replicate?.close();
});

describe('imagegen1 through a replicate channel', () => {
  it('creates a prediction once, answers pending at once, and serves the outputs from the gateway', async () => {
    const created = await call('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'a fox', width: 512, height: 512, num_outputs: 2 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^[a-z2-7]{26}$/), status: 'pending' });
    const creates = replicate.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
    expect(creates).toHaveLength(1);
    expect(creates[0].headers.prefer).toBeUndefined();
    const record = await untilDone(created.json.id);
    expect(record).toMatchObject({
      status: 'succeeded',
      model: 'black-forest-labs/flux-schnell',
      input: { prompt: 'a fox', width: 512, height: 512, num_outputs: 2 },
    });
    expect(record.output).toHaveLength(2);
    for (const url of record.output) expect(url.startsWith(gw.url)).toBe(true);
    expect(typeof record.completed_at).toBe('string');
    replicate.expireOutputs();
    expect((await fetch(record.output[0])).status).toBe(200);
    const ledger = await gw.gateway.tasks.repository.ledger(created.json.id);
    expect(ledger.map((e) => e.kind)).toEqual(['reserve', 'settle']);
    // flux-schnell is $0.003 an image, two asked and made: 6,000,000 nUSD reserved and settled.
    expect(ledger.map((e) => e.amount_nusd)).toEqual([6_000_000, 6_000_000]);
  });

  it('leaves exactly two usage rows: the submit as a free call row, and the task row with its settlement', async () => {
    const response = await fetch(`${gw.url}/imagegen1/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt: 'two rows', num_outputs: 2 }),
    });
    const submitId = response.headers.get('x-request-id') as string;
    const { id } = (await response.json()) as { id: string };
    expect((await untilDone(id)).status).toBe('succeeded');
    await gw.gateway.recorder.flush();
    const rows = await gw.gateway.store.db
      .selectFrom('usage_records')
      .select(['request_id', 'operation', 'outcome', 'units', 'cost_nusd'])
      .where('request_id', 'in', [submitId, `task:${id}`])
      .orderBy('request_id')
      .execute();
    const [settled] = (await gw.gateway.tasks.repository.ledger(id)).filter((entry) => entry.kind === 'settle');
    expect(rows).toEqual([
      { request_id: submitId, operation: 'image.generate', outcome: 'ok', units: 0, cost_nusd: 0 },
      { request_id: `task:${id}`, operation: 'image.generate', outcome: 'ok', units: 2, cost_nusd: 6_000_000 },
    ]);
    expect(settled.amount_nusd).toBe(6_000_000);
  });

  it('refunds a failed prediction once, with the vendor message', async () => {
    replicate.failNextPrediction('NSFW content detected');
    const created = await call('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'nope' });
    const record = await untilDone(created.json.id);
    expect(record.status).toBe('failed');
    expect(record.error).toContain('NSFW');
    const ledger = await gw.gateway.tasks.repository.ledger(created.json.id);
    expect(ledger.map((e) => e.kind)).toEqual(['reserve', 'refund']);
  });

  it('cancels a running task and refunds it once; a second cancel changes nothing', async () => {
    const created = await call('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'slow' });
    const canceled = await call(`/imagegen1/task/${created.json.id}/cancel`, {});
    expect(canceled.json.status).toBe('canceled');
    await call(`/imagegen1/task/${created.json.id}/cancel`, {});
    const ledger = await gw.gateway.tasks.repository.ledger(created.json.id);
    expect(ledger.map((e) => e.kind)).toEqual(['reserve', 'refund']);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await call(`/imagegen1/task/${created.json.id}`)).json.status).toBe('canceled');
  });

  it("answers another key's task like an unknown one", async () => {
    const created = await call('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'private' });
    const other = await gw.createKey({ name: 'other' });
    const foreign = await call(`/imagegen1/task/${created.json.id}`, undefined, other);
    const unknown = await call('/imagegen1/task/aaaaaaaaaaaaaaaaaaaaaaaaaa', undefined, other);
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(Object.keys(foreign.json).sort()).toEqual(Object.keys(unknown.json).sort());
  });

  it('takes a signed upstream callback as a wake-up, and refuses a forged one', async () => {
    const created = await call('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'wake me' });
    const stored = await gw.gateway.tasks.repository.get(created.json.id);
    const url = `${gw.url}/tasks/callback/${stored!.callbackToken}`;
    const forged = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":"succeeded"}' });
    expect(forged.status).toBe(404);
    const unknownToken = await fetch(`${gw.url}/tasks/callback/${'x'.repeat(32)}`, { method: 'POST', body: '{}' });
    expect(unknownToken.status).toBe(404);
    // Pushed far out: only the callback can bring the next poll back.
    await gw.gateway.store.db
      .updateTable('tasks')
      .set({ next_poll_at: Date.now() + 3_600_000 })
      .where('id', '=', created.json.id)
      .execute();
    const body = JSON.stringify({ id: stored!.upstreamId, status: 'succeeded' });
    const signed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signStandardWebhook(replicate.webhookSecret, body, Math.floor(Date.now() / 1000)) },
      body,
    });
    expect(signed.status).toBe(204);
    expect((await untilDone(created.json.id)).status).toBe('succeeded');
  });
});
