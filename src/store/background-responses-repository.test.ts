import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { BackgroundResponsesRepository } from './background-responses-repository.js';
import { openStore, type OpenedStore } from './open-store.js';

const T0 = 1_750_000_000_000;
const CAPS = { maxEvents: 1_000, maxBytes: 1_000_000 };

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  ['sqlite', async () => ({ url: 'sqlite::memory:', cleanup: async () => {} })],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

let next = 0;
function newRun(owner: string, leaseUntil: number) {
  next += 1;
  return {
    id: `resp_test_${next}`,
    keyId: 'key_1',
    accountId: null,
    keyJson: '{"id":"key_1"}',
    requestId: `req-${next}`,
    body: '{"model":"m","input":"hi"}',
    stream: true,
    leaseOwner: owner,
    leaseUntil,
    now: T0,
  };
}

describe.each(backends)('background responses on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let repository: BackgroundResponsesRepository;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    repository = new BackgroundResponsesRepository(store.db, store.dialect);
  });

  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  it('numbers events in order across appends and replays them after a cursor', async () => {
    const run = newRun('a', T0 + 10_000);
    await repository.insert(run);
    expect(await repository.markStarted(run.id, 'a', T0)).toBe(true);
    expect(await repository.append(run.id, 'a', [{ type: 'response.created' }, { type: 'response.in_progress' }], CAPS, T0)).toBe(true);
    expect(await repository.append(run.id, 'a', [{ type: 'response.output_text.delta', delta: 'x' }], CAPS, T0)).toBe(true);
    const ending = { status: 'completed', finalObject: '{"status":"completed"}', terminal: { type: 'response.completed' } };
    expect(await repository.finish(run.id, 'a', ending, T0)).toBe(true);
    const after0 = await repository.eventsAfter(run.id, 0, 100);
    expect(after0.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'response.in_progress'],
      [2, 'response.output_text.delta'],
      [3, 'response.completed'],
    ]);
    expect(JSON.parse(after0[1].data)).toEqual({ type: 'response.output_text.delta', delta: 'x', sequence_number: 2 });
    expect(await repository.get(run.id)).toMatchObject({ status: 'completed', finalObject: '{"status":"completed"}', leaseOwner: null });
  });

  it('writes nothing for a process that does not hold the run, and nothing after the end', async () => {
    const run = newRun('a', T0 + 10_000);
    await repository.insert(run);
    expect(await repository.append(run.id, 'b', [{ type: 'x' }], CAPS, T0)).toBe(false);
    const cancel = { status: 'cancelled', finalObject: '{}', terminal: { type: 'response.failed' } };
    expect(await repository.finish(run.id, undefined, cancel, T0)).toBe(true);
    expect(await repository.finish(run.id, undefined, cancel, T0)).toBe(false);
    expect(await repository.append(run.id, 'a', [{ type: 'late' }], CAPS, T0)).toBe(false);
    expect(await repository.finish(run.id, 'a', { ...cancel, status: 'completed' }, T0)).toBe(false);
    expect((await repository.eventsAfter(run.id, -1, 100)).map((e) => e.type)).toEqual(['response.failed']);
    expect(await repository.renewLease(run.id, 'a', T0 + 20_000)).toBe(false);
  });

  it('keeps events up to the caps, numbering the dropped ones, and always keeps the terminal event', async () => {
    const run = newRun('a', T0 + 10_000);
    await repository.insert(run);
    const events = Array.from({ length: 5 }, (_, i) => ({ type: 'delta', i }));
    expect(await repository.append(run.id, 'a', events, { maxEvents: 3, maxBytes: 1_000_000 }, T0)).toBe(true);
    await repository.finish(run.id, 'a', { status: 'completed', finalObject: '{}', terminal: { type: 'response.completed' } }, T0);
    expect((await repository.eventsAfter(run.id, -1, 100)).map((e) => e.sequence)).toEqual([0, 1, 2, 5]);
  });

  it('claims a run only once its lease ran out, counting the attempt, and not twice', async () => {
    const run = newRun('dead', T0 + 1_000);
    await repository.insert(run);
    expect((await repository.claimOrphans(T0 + 500, 100, 'b', 5_000)).map((r) => r.id)).not.toContain(run.id);
    const claimed = await repository.claimOrphans(T0 + 1_000, 100, 'b', 5_000);
    expect(claimed.find((r) => r.id === run.id)).toMatchObject({ attempts: 2, leaseOwner: 'b' });
    expect((await repository.claimOrphans(T0 + 1_001, 100, 'c', 5_000)).map((r) => r.id)).not.toContain(run.id);
    expect(await repository.append(run.id, 'dead', [{ type: 'x' }], CAPS, T0)).toBe(false);
    expect(await repository.append(run.id, 'b', [{ type: 'x' }], CAPS, T0)).toBe(true);
  });

  it('a released run is claimable at once; ended runs are swept with their events', async () => {
    const run = newRun('a', T0 + 60_000);
    await repository.insert(run);
    await repository.releaseLease(run.id, 'a');
    expect((await repository.claimOrphans(T0, 100, 'b', 5_000)).map((r) => r.id)).toContain(run.id);
    await repository.finish(run.id, 'b', { status: 'failed', finalObject: '{}', terminal: { type: 'response.failed' } }, T0);
    expect(await repository.sweepEnded(T0 + 1, 1_000)).toBeGreaterThanOrEqual(1);
    expect(await repository.get(run.id)).toBeUndefined();
    expect(await repository.eventsAfter(run.id, -1, 100)).toEqual([]);
  });
});
