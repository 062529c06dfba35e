import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { BackgroundResponseJob, StoredBackgroundEvent } from '../gateway/contract.js';
import { BackgroundResponsesRepository } from '../store/background-responses-repository.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { BackgroundResponseEngine, MAX_ATTEMPTS } from './background-response-engine.js';

const KEY: AuthenticatedKey = { id: 'key_1', name: 'k', models: null, isMaster: false, accountId: 'acct_1' };

let store: OpenedStore;
let repository: BackgroundResponsesRepository;
const engines: BackgroundResponseEngine[] = [];

function engine(options: { revoked?: boolean; leaseMs?: number } = {}): BackgroundResponseEngine {
  const made = new BackgroundResponseEngine({
    repository,
    logger: pino({ level: 'silent' }),
    leaseMs: options.leaseMs ?? 60_000,
    revocationOf: () => (options.revoked ? new GatewayError('authentication', 'This API key has been revoked.') : undefined),
    tickMs: 20,
  });
  engines.push(made);
  return made;
}

async function collect(events: AsyncIterable<StoredBackgroundEvent>): Promise<StoredBackgroundEvent[]> {
  const all: StoredBackgroundEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function jobs(target: BackgroundResponseEngine): BackgroundResponseJob[] {
  const seen: BackgroundResponseJob[] = [];
  target.serve(async (job) => {
    seen.push(job);
  });
  return seen;
}

beforeEach(async () => {
  store = await openStore('sqlite::memory:');
  repository = new BackgroundResponsesRepository(store.db, store.dialect);
});

afterEach(async () => {
  for (const made of engines.splice(0)) await made.stop();
  await store.close();
});

describe('background response engine', () => {
  it('runs a created response here at once; followers get its events in order and stop at the terminal one', async () => {
    const bg = engine();
    bg.serve(async (job) => {
      await job.emit({ type: 'response.created' });
      await job.emit({ type: 'response.output_text.delta', delta: 'hi' });
      expect(await job.finish({ status: 'completed', object: { status: 'completed' }, terminal: { type: 'response.completed' } })).toBe(true);
    });
    await bg.create(KEY, { id: 'resp_1', requestId: 'req-1', body: { input: 'x' }, stream: true });
    const events = await collect(bg.follow('resp_1', -1, new AbortController().signal));
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [0, 'response.created'],
      [1, 'response.output_text.delta'],
      [2, 'response.completed'],
    ]);
    expect(await bg.get('resp_1')).toEqual({ status: 'completed', stream: true, finalObject: { status: 'completed' } });
    expect((await collect(bg.follow('resp_1', 1, new AbortController().signal))).map((e) => e.sequence)).toEqual([2]);
  });

  it('a cancel ends the run in the store, aborts its signal, and the run can no longer write or finish', async () => {
    const bg = engine();
    let running!: BackgroundResponseJob;
    const started = new Promise<void>((resolve) => {
      bg.serve(async (job) => {
        running = job;
        await job.emit({ type: 'response.created' });
        // Stored within the writer's batching delay.
        await expect.poll(async () => (await repository.eventsAfter(job.id, -1, 10)).length).toBe(1);
        resolve();
        await new Promise((r) => job.signal.addEventListener('abort', r));
      });
    });
    await bg.create(KEY, { id: 'resp_2', requestId: 'req-2', body: {}, stream: true });
    await started;
    expect(await bg.cancel('resp_2', { object: { status: 'cancelled' }, terminal: { type: 'response.failed' } })).toBe(true);
    expect(running.signal.aborted).toBe(true);
    expect(await running.finish({ status: 'completed', object: {}, terminal: { type: 'response.completed' } })).toBe(false);
    expect(await bg.cancel('resp_2', { object: {}, terminal: { type: 'response.failed' } })).toBe(false);
    const events = await collect(bg.follow('resp_2', -1, new AbortController().signal));
    expect(events.map((e) => e.type)).toEqual(['response.created', 'response.failed']);
    expect((await bg.get('resp_2'))?.status).toBe('cancelled');
  });

  it('takes over a run whose process died once its lease ran out, as the next attempt with its own request id', async () => {
    await repository.insert({
      id: 'resp_3',
      keyId: KEY.id,
      accountId: KEY.accountId,
      keyJson: JSON.stringify(KEY),
      requestId: 'req-3',
      body: '{"input":"x"}',
      stream: false,
      leaseOwner: 'a-dead-process',
      leaseUntil: Date.now() - 1,
      now: Date.now(),
    });
    const bg = engine();
    const seen = jobs(bg);
    bg.start();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({ id: 'resp_3', attempt: 2, requestId: 'req-3.2', key: KEY, body: { input: 'x' } });
    expect(seen[0].refusal).toBeUndefined();
  });

  it(`refuses to run a response a ${MAX_ATTEMPTS + 1}th time, and for a revoked key`, async () => {
    await repository.insert({
      id: 'resp_4',
      keyId: KEY.id,
      accountId: null,
      keyJson: JSON.stringify(KEY),
      requestId: 'req-4',
      body: '{}',
      stream: false,
      leaseOwner: 'dead',
      leaseUntil: 0,
      now: 0,
    });
    await store.db.updateTable('background_responses').set({ attempts: MAX_ATTEMPTS }).where('id', '=', 'resp_4').execute();
    const bg = engine();
    const seen = jobs(bg);
    bg.start();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0].refusal).toMatchObject({ code: 'server_error' });

    const revoked = engine({ revoked: true });
    const refused = jobs(revoked);
    await revoked.create(KEY, { id: 'resp_5', requestId: 'req-5', body: {}, stream: false });
    await expect.poll(() => refused.length).toBe(1);
    expect(refused[0].refusal).toEqual({ code: 'invalid_api_key', message: 'This API key has been revoked.' });
  });

  it('gives its runs back on stop, so another process takes them over at once', async () => {
    const first = engine();
    first.serve((job) => new Promise((resolve) => job.signal.addEventListener('abort', () => resolve())));
    await first.create(KEY, { id: 'resp_6', requestId: 'req-6', body: {}, stream: false });
    await first.stop();
    const second = engine();
    const seen = jobs(second);
    second.start();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({ id: 'resp_6', attempt: 2 });
  });
});
