/**
 * A submit the upstream accepted, answered only after the submitting replica lost its submit
 * lease (a replica starved of CPU: its timers, the lease heartbeat among them, did not run).
 * Two gateways share one SQLite file; replica A takes the submit with its scheduler stopped (so
 * nothing renews its lease), replica B runs the scheduler that sweeps interrupted submits. A
 * gate in front of the fake Replicate lets the prediction be created at once but holds its
 * answer until the test releases it, after B's sweep has acted on the queued row.
 *
 * - B's sweep looked at the task once before the answer came: A still records the upstream id,
 *   and the task is polled and settled normally (never failed, never created twice).
 * - B's sweep had already failed and refunded it: A records the upstream id on the failed row and
 *   cancels the prediction upstream — the client is not charged and the accepted job is not lost
 *   track of.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredTask } from '../../src/store/tasks-repository.js';
import { FAKE_REPLICATE_TOKEN, type FakeReplicateUpstream, startFakeReplicateUpstream } from '../fakes/fake-replicate-upstream.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { until } from './task-kill-checks.js';

/** Replica A's submit lease: short, so the held answer outlives it. */
const SUBMIT_LEASE_MS = 300;
/** Replica B's poller lease: how long its sweep leaves a submit it suspects before failing it. */
const LEASE_MS = 2_000;

interface Gate {
  url: string;
  /** Prediction creations forwarded upstream whose answer is held. */
  held: number;
  release(): void;
  close(): Promise<void>;
}

/** Forwards everything to the fake; the answer of a prediction creation waits for `release()`. */
async function startGate(upstream: string): Promise<Gate> {
  let open: () => void = () => undefined;
  let opened = new Promise<void>((resolve) => (open = resolve));
  const gate = {
    url: '',
    held: 0,
    release() {
      open();
      opened = new Promise<void>((resolve) => (open = resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'prefer']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    if (req.method === 'POST' && req.url?.endsWith('/predictions')) {
      gate.held++;
      await opened;
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(body);
  };
  const server: Server = createServer((req, res) => void forward(req, res).catch(() => res.writeHead(502).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gate;
}

let replicate: FakeReplicateUpstream;
let gate: Gate;
let a: RunningGateway;
let b: RunningGateway;
const dir = mkdtempSync(join(tmpdir(), 'gengate-late-submit-'));

beforeAll(async () => {
  replicate = await startFakeReplicateUpstream({ processingMs: 200 });
  gate = await startGate(replicate.url);
  const replica = (tasks: Record<string, number>) =>
    startGateway({
      databaseUrl: `sqlite:${join(dir, 'gengate.db')}`,
      media: { allowPrivateUrls: true },
      tasks,
      channels: [
        { name: 'replicate', provider: 'replicate', baseUrl: gate.url, apiKey: FAKE_REPLICATE_TOKEN, models: ['*/*'], options: { pollIntervalMs: 100 } },
      ],
    });
  a = await replica({ submitLeaseMs: SUBMIT_LEASE_MS, leaseMs: LEASE_MS });
  b = await replica({ submitLeaseMs: SUBMIT_LEASE_MS, leaseMs: LEASE_MS });
  // Replica A is "starved": neither its lease heartbeat nor its scheduler runs. It still answers requests.
  await a.gateway.tasks.poller.stop();
}, 60_000);

afterAll(async () => {
  gate?.release();
  await a?.close();
  await b?.close();
  await gate?.close();
  await replicate?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends a create to replica A and waits until its prediction exists upstream, its answer held by the gate. */
async function heldSubmit(prompt: string): Promise<{ answer: Promise<Response>; task: StoredTask }> {
  const before = gate.held;
  const answer = fetch(`${a.url}/imagegen1/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt }),
  });
  await until('the prediction created upstream, its answer held', () => gate.held > before || undefined, 5_000);
  const repository = b.gateway.tasks.repository;
  const page = await b.gateway.store.db.selectFrom('tasks').select('id').where('request', 'like', `%${prompt}%`).executeTakeFirstOrThrow();
  return { answer, task: (await repository.get(page.id)) as StoredTask };
}

const row = (id: string) => b.gateway.tasks.repository.get(id) as Promise<StoredTask>;

describe('an upstream answer that comes after the submit lease ran out', () => {
  it('is recorded, and the task polled and settled, when the sweep has only looked at it', async () => {
    const { answer, task } = await heldSubmit('late but kept');
    // Replica B's sweep took the queued row (its lease ran out: nothing renewed it).
    const swept = await until(
      'the sweep to act on the queued task',
      async () => {
        const now = await row(task.id);
        return now.leaseOwner === b.gateway.tasks.poller.instance || now.status !== 'queued' ? now : undefined;
      },
      5_000,
    );
    gate.release();
    const created = await answer;
    expect(created.status).toBe(201);
    const done = await until(
      'the task to end',
      async () => {
        const now = await row(task.id);
        return ['succeeded', 'failed', 'canceled'].includes(now.status) ? now : undefined;
      },
      10_000,
    );
    // The sweep had taken the row from the silent submitter before the answer came.
    expect(swept).toMatchObject({ status: 'queued', leaseOwner: b.gateway.tasks.poller.instance });
    expect(done).toMatchObject({ status: 'succeeded', upstreamId: expect.any(String) });
    expect(replicate.predictions.has(done.upstreamId as string)).toBe(true);
    expect(replicate.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'))).toHaveLength(1);
    expect((await b.gateway.tasks.repository.ledger(task.id)).map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
  });

  it('is recorded on the failed row and canceled upstream when the sweep had already failed and refunded the task', async () => {
    const creates = () => replicate.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions')).length;
    const createsBefore = creates();
    const { answer, task } = await heldSubmit('too late to keep');
    await until('the sweep to fail the task', async () => ((await row(task.id)).status === 'failed' ? true : undefined), 10_000);
    gate.release();
    const created = await answer;
    expect(created.status).toBe(201);
    const failed = await row(task.id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'submit_interrupted' } });
    // The prediction it started is known, and canceled upstream.
    const [upstreamId] = [...replicate.predictions.keys()].filter((id) => replicate.predictions.get(id)?.input?.prompt === 'too late to keep');
    expect(upstreamId).toBeDefined();
    expect(failed.upstreamId).toBe(upstreamId);
    await until('the prediction canceled upstream', () => replicate.canceled.includes(upstreamId) || undefined, 5_000);
    expect(creates()).toBe(createsBefore + 1);
    expect((await b.gateway.tasks.repository.ledger(task.id)).map((entry) => entry.kind)).toEqual(['reserve', 'refund']);
  });
});
