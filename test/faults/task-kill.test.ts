/**
 * The task engine under `kill -9`, against the fake MJ proxy, with real gateway processes.
 *
 * SQLite, one process: killed at each moment of a task's life (submit in flight, submit answered
 * but not yet stored, poll in flight, result download in flight), then restarted on the same
 * database and address. PostgreSQL, two processes on one database and one media folder: one is
 * killed while polls are in flight and the survivor finishes everything.
 *
 * After every recovery: each task ends in one terminal status with exactly one reserve and one
 * settle (succeeded) or refund (otherwise), one usage row, at most one upstream submit, and the
 * succeeded ones' images are served by the gateway after the upstream dropped them. Short leases
 * (1.5 s on SQLite) make the recovery happen within seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeMjProxy, type FakeMjRecordedRequest, startFakeMjProxy } from '../fakes/fake-mj-proxy.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type GatewayProcess, startGatewayProcess } from './gateway-process.js';
import { readTasks, type TasksState } from './read-tasks.js';
import {
  expectResultsServedByGateway,
  expectTaskGuarantees,
  isPoll,
  mjGatewayYaml,
  submitImagine,
  until,
  untilAllTerminal,
  upstreamIdsOf,
} from './task-kill-checks.js';

const dirs: string[] = [];
const databases: TempDatabase[] = [];
const fakes: FakeMjProxy[] = [];
const processes: GatewayProcess[] = [];

afterAll(async () => {
  for (const gateway of processes) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await Promise.all(processes.map((gateway) => gateway.exited));
  for (const fake of fakes) await fake.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-taskkill-'));
  dirs.push(dir);
  return dir;
}

async function start(setup: Parameters<typeof startGatewayProcess>[0]): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess(setup);
  processes.push(gateway);
  return gateway;
}

async function killed(gateway: GatewayProcess): Promise<void> {
  if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  expect((await gateway.exited).signal).toBe('SIGKILL');
}

const statusOf = (state: TasksState, prompt: string) => state.tasks.find((task) => task.prompt === prompt);

/** One gateway after another on one SQLite database, each restarted on its predecessor's address after a `kill -9`. */
class SqliteLife {
  gateway!: GatewayProcess;
  readonly databaseUrl: string;
  private readonly dataDir = tempDir();
  private port?: number;

  constructor(
    readonly fake: FakeMjProxy,
    private readonly extraYaml: string,
  ) {
    this.databaseUrl = `sqlite:${join(this.dataDir, 'gengate.db')}`;
  }

  async start(): Promise<void> {
    this.gateway = await start({ dataDir: this.dataDir, databaseUrl: this.databaseUrl, tokensPerSecond: 1000, extraYaml: this.extraYaml, port: this.port });
    this.port = Number(new URL(this.gateway.url).port);
  }

  /** Kills the gateway (unless the window already did), reads the database as the kill left it, lifts the fake's delays and restarts. */
  async killAndRestart(): Promise<TasksState> {
    await killed(this.gateway);
    const atKill = await readTasks(this.databaseUrl);
    this.fake.setDelay(0);
    this.fake.setAttachmentDelay(0);
    await this.start();
    return atKill;
  }

  /** Waits until all `count` tasks so far are terminal. */
  settled(count: number): Promise<TasksState> {
    return untilAllTerminal(this.databaseUrl, count, 15_000);
  }
}

describe('task engine under kill -9 (SQLite, one process, restarted after each kill)', () => {
  it('killed at each moment of a task — submit in flight, submit answered, mid-poll, mid-download — every task ends once, billed once', async () => {
    const fake = await startFakeMjProxy({ taskMs: 400 });
    fakes.push(fake);
    const life = new SqliteLife(fake, mjGatewayYaml({ fakeUrl: fake.url, leaseMs: 1500, submitLeaseMs: 1500, pollIntervalMs: 250 }));
    await life.start();

    // a: the submit answers only after 4 s; the kill lands before the submit lease (1.5 s) runs out.
    // The upstream creates the task after the gateway died (its answer goes nowhere): failed and refunded, never resubmitted.
    {
      const prompts = ['window-a-1', 'window-a-2'];
      fake.setDelay(4_000);
      const pending = prompts.map((prompt) => submitImagine(life.gateway.url, prompt));
      await until('both submits upstream', () => fake.submits().length === prompts.length, 5_000);
      await killed(life.gateway);
      const answers = await Promise.all(pending);
      expect(answers.every((answer) => answer.id === undefined && answer.error !== undefined)).toBe(true);
      const atKill = await life.killAndRestart();
      const after = await life.settled(2);
      for (const prompt of prompts) {
        expect(statusOf(atKill, prompt)).toMatchObject({ status: 'queued', upstream_id: null });
        expect(statusOf(after, prompt)).toMatchObject({ status: 'failed', error_code: 'submit_interrupted', upstream_id: null });
      }
      await until('the upstream to create the orphans', () => fake.tasks.size === prompts.length, 5_000);
      expect(fake.submits().every((request) => request.aborted === true)).toBe(true);
    }

    // b: SIGKILL synchronously in the fake's own "answer sent" event, so the gateway has at most the
    // time the signal takes to land to read the answer and commit its update. The database at kill
    // time (asserted: still `queued`, no upstream id) shows the update never committed; whether the
    // dying process had already read the answer bytes cannot be seen from outside.
    {
      fake.setDelay(500);
      let answered: Record<string, unknown> | undefined;
      const gateway = life.gateway;
      const off = fake.onAnswer((request) => {
        if (!request.path.startsWith('/mj/submit/') || answered) return;
        gateway.child.kill('SIGKILL');
        answered = request.answer;
      });
      void submitImagine(gateway.url, 'window-b-1');
      await gateway.exited;
      off();
      const atKill = await life.killAndRestart();
      const after = await life.settled(3);
      expect(answered).toMatchObject({ code: 1, result: expect.any(String) });
      expect(fake.tasks.has(String(answered!.result))).toBe(true);
      expect(fake.submits().at(-1)?.aborted).toBeFalsy();
      expect(statusOf(atKill, 'window-b-1')).toMatchObject({ status: 'queued', upstream_id: null });
      expect(statusOf(after, 'window-b-1')).toMatchObject({ status: 'failed', error_code: 'submit_interrupted' });
    }

    // c: the poll answers (fetch or list-by-condition) held back 5 s; killed while one is in flight.
    // The restart takes the tasks over once their leases (1.5 s) ran out.
    {
      const prompts = ['window-c-fails', 'window-c-1', 'window-c-2'];
      fake.setTaskMs(1_200);
      fake.failNextTask('the fake fails this one');
      const before = new Set(fake.tasks.keys());
      for (const prompt of prompts) expect((await submitImagine(life.gateway.url, prompt)).id).toBeDefined();
      const upstreamIds = [...fake.tasks.keys()].filter((id) => !before.has(id));
      const heldFrom = fake.requests.length;
      fake.setDelay(5_000);
      // Killed once every one of the three is in a held poll (a fetch or a list-by-condition).
      await until(
        'a poll of each task in flight',
        () => {
          const polled = new Set(
            fake.requests
              .slice(heldFrom)
              .filter((r) => isPoll(r) && r.endedAt === undefined)
              .flatMap(upstreamIdsOf),
          );
          return upstreamIds.every((id) => polled.has(id));
        },
        5_000,
      );
      const atKill = await life.killAndRestart();
      const after = await life.settled(6);
      for (const prompt of prompts) expect(['submitted', 'running']).toContain(statusOf(atKill, prompt)?.status);
      for (const prompt of prompts) expect(statusOf(atKill, prompt)?.lease_owner, prompt).not.toBeNull();
      expect(fake.requests.slice(heldFrom).some((r) => isPoll(r) && r.aborted === true)).toBe(true);
      expect(statusOf(after, 'window-c-fails')).toMatchObject({ status: 'failed', error_code: 'upstream_failed' });
      expect(statusOf(after, 'window-c-1')?.status).toBe('succeeded');
      expect(statusOf(after, 'window-c-2')?.status).toBe('succeeded');
    }

    // d: the result image answers only after 5 s; killed while the gateway downloads it. The restart
    // polls again, copies the image and settles once.
    {
      const prompts = ['window-d-1', 'window-d-2'];
      fake.setTaskMs(500);
      fake.setAttachmentDelay(5_000);
      for (const prompt of prompts) expect((await submitImagine(life.gateway.url, prompt)).id).toBeDefined();
      const request = await until(
        'a result download in flight',
        () => fake.requests.find((r) => r.path.startsWith('/attachments/') && r.endedAt === undefined),
        8_000,
      );
      const downloading = upstreamIdsOf(request)[0];
      const atKill = await life.killAndRestart();
      const after = await life.settled(8);
      const cut = atKill.tasks.find((task) => task.upstream_id === downloading);
      expect(cut).toMatchObject({ media: [] });
      expect(['submitted', 'running']).toContain(cut?.status);
      expect(cut?.lease_owner).not.toBeNull();
      const downloads = fake.requests.filter((r) => r.path === `/attachments/${downloading}.png`);
      expect(downloads[0].aborted).toBe(true);
      expect(downloads.some((r) => r.status === 200)).toBe(true);
      for (const prompt of prompts) expect(statusOf(after, prompt)?.status).toBe('succeeded');
    }

    const final = await life.settled(8);
    expectTaskGuarantees(final, fake);
    expect(await expectResultsServedByGateway(life.gateway.url, final.tasks, fake, true)).toBe(4);
    life.gateway.child.kill('SIGTERM');
    await life.gateway.exited;
  }, 360_000);
});

describe('task engine under kill -9 (PostgreSQL, two processes)', () => {
  it('one of two gateways is killed while polls are in flight; the survivor finishes every task once, and no task is ever polled by both at once', async () => {
    const database = await createTempDatabase();
    databases.push(database);
    const dataDir = tempDir();
    const fake = await startFakeMjProxy({ taskMs: 2_500 });
    fakes.push(fake);
    // Leases longer than a whole poll (a held-back batch query, its seeds, the downloads): a live process never loses a task it is polling.
    const engine = { fakeUrl: fake.url, leaseMs: 4_000, submitLeaseMs: 4_000, pollIntervalMs: 300, claimBatch: 4 };
    const setup = { dataDir, databaseUrl: database.url, tokensPerSecond: 1000 };
    const victim = await start({ ...setup, extraYaml: mjGatewayYaml({ ...engine, processTag: 'victim' }), configName: 'gengate-a.yaml' });
    const survivor = await start({ ...setup, extraYaml: mjGatewayYaml({ ...engine, processTag: 'survivor' }), configName: 'gengate-b.yaml' });
    const byVictim = (request: FakeMjRecordedRequest) => request.headers['x-gateway-process'] === 'victim';

    fake.setDelay(400);
    fake.failNextTask('the fake fails the first task it creates');
    const count = 20;
    const submitted = await Promise.all(Array.from({ length: count }, (_, i) => submitImagine(i % 2 === 0 ? victim.url : survivor.url, `two-processes-${i}`)));
    expect(submitted.every((answer) => answer.id !== undefined)).toBe(true);
    // Killed while one of its own polls is held back by the fake (both processes poll; only the victim's can be cut).
    await until('a poll of the victim in flight', () => fake.requests.find((r) => isPoll(r) && byVictim(r) && r.endedAt === undefined), 5_000);
    await killed(victim);
    // The victim's polls in flight were cut (the fake saw their connections drop).
    await until('the cut polls to show', () => fake.requests.some((r) => isPoll(r) && byVictim(r) && r.aborted === true), 2_000);

    try {
      const after = await untilAllTerminal(database.url, count, 30_000);
      expectTaskGuarantees(after, fake);
      expect(after.tasks.filter((task) => task.status === 'failed').map((task) => task.error_code)).toEqual(['upstream_failed']);
      expect(after.tasks.filter((task) => task.status === 'succeeded')).toHaveLength(count - 1);
      expect(await expectResultsServedByGateway(survivor.url, after.tasks, fake, false)).toBe(count - 1);

      // At most one poll (batch query, fetch, seed or result download) in flight per upstream task at any instant.
      const spans = new Map<string, Array<{ from: number; to: number; path: string }>>();
      for (const request of fake.requests) {
        for (const id of upstreamIdsOf(request)) {
          spans.set(id, [...(spans.get(id) ?? []), { from: request.receivedAt, to: request.endedAt ?? Number.POSITIVE_INFINITY, path: request.path }]);
        }
      }
      expect(spans.size).toBe(count);
      for (const [id, list] of spans) {
        list.sort((a, b) => a.from - b.from);
        let busyUntil = Number.NEGATIVE_INFINITY;
        for (const span of list) {
          expect(span.from, `${id}: ${span.path} began while another poll of it was in flight`).toBeGreaterThanOrEqual(busyUntil);
          busyUntil = Math.max(busyUntil, span.to);
        }
      }
    } finally {
      survivor.child.kill('SIGTERM');
      await survivor.exited;
    }
  }, 300_000);
});
