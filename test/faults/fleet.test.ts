/**
 * Issue 27, the fleet: three real gateway processes on one PostgreSQL database, one Redis (a
 * private one) and one S3-compatible bucket (s3rver), behind a small TCP load balancer of the
 * test's own. Steady traffic of chat calls, streams and video tasks (the fake MiniMax) goes
 * through the balancer, one connection per request, while one replica is `kill -9`ed and another
 * drained with SIGTERM; both are started again on their ports (the killed one's journal is
 * recovered at its start). Then: no accepted task is lost (each ends succeeded), none was
 * submitted upstream twice, every completed call and task has exactly one usage row, each video a
 * replica wrote into the bucket is downloaded byte-identical through every replica after the
 * vendor's link expired, and a key revoked through one replica is refused by the other two within
 * 100 ms
 * (the settled fleet's median; under the test's own load it is reported, and bounded far below the
 * safety poll).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { FAKE_MINIMAX_KEY, type FakeMinimaxUpstream, startFakeMinimaxUpstream } from '../fakes/fake-minimax-upstream.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type RunningS3Server, startS3Server } from '../helpers/s3-server.js';
import { createTenant, type Tenant } from '../helpers/webhook-tenants.js';
import { freePort, type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { type BoundedResult, chatCompleted, requestOnNewConnection } from './helpers/bounded-request.js';
import { eventually } from './helpers/eventually.js';
import { type PrivateRedis, startPrivateRedis } from './helpers/private-redis.js';
import { timeRevocation } from './helpers/revocation.js';
import { startTcpBalancer, type TcpBalancer } from './helpers/tcp-balancer.js';
import { readTasks } from './read-tasks.js';
import { byRequestId, readUsage } from './read-usage.js';

const REPLICAS = 3;
const MODEL = 'textmodel-b-4o-mini';
/** Every request's deadline: an answer later than this is a hang. */
const DEADLINE_MS = 15_000;
/** The propagation promise: a revocation is felt on every replica within this. */
const REVOCATION_MS = 100;

let redis: PrivateRedis;
let database: TempDatabase;
let s3: RunningS3Server;
let fake: FakeMinimaxUpstream;
let balancer: TcpBalancer;
const dataDir = mkdtempSync(join(tmpdir(), 'gengate-fleet-'));
const ports: number[] = [];
/** Every process started, the replaced ones too, for cleanup and diagnostics. */
const processes: GatewayProcess[] = [];
/** The process serving each port now. */
const replicas: GatewayProcess[] = [];

function yaml(): string {
  return [
    'channels:',
    '  - name: minimax-fake',
    '    provider: minimax',
    `    baseUrl: ${fake.url}`,
    `    apiKey: ${FAKE_MINIMAX_KEY}`,
    "    models: ['videogen1-*']",
    "    modelRewrite: [{ from: 'videogen1-', to: '' }]",
    '    options: { pollIntervalMs: 200 }',
    'tasks:',
    '  leaseMs: 1500',
    // Short enough that the killed replica's submits in flight are swept within the test; long enough
    // that a live replica starved of CPU on a shared machine still renews its own in time.
    '  submitLeaseMs: 5000',
    'media:',
    '  store: s3',
    `  s3: ${JSON.stringify({ ...s3.settings, prefix: 'fleet/' })}`,
    '  allowPrivateUrls: true',
    '',
  ].join('\n');
}

async function startReplica(index: number): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({
    dataDir,
    databaseUrl: database.url,
    tokensPerSecond: 100,
    configName: `gengate-${index}.yaml`,
    extraYaml: yaml(),
    port: ports[index],
    drainTimeoutMs: 4_000,
    env: { GENGATE_REDIS_URL: redis.url },
  });
  processes.push(gateway);
  replicas[index] = gateway;
  return gateway;
}

beforeAll(async () => {
  [redis, database, s3, fake] = await Promise.all([startPrivateRedis(), createTempDatabase(), startS3Server(), startFakeMinimaxUpstream({ taskMs: 1_500 })]);
  for (let i = 0; i < REPLICAS; i++) ports.push(await freePort());
  // The first one migrates the fresh database alone; the others then start side by side.
  await startReplica(0);
  await Promise.all([1, 2].map(startReplica));
  balancer = await startTcpBalancer(ports);
}, 300_000);

afterAll(async () => {
  for (const gateway of processes) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await Promise.all(processes.map((gateway) => gateway.exited));
  await balancer?.close();
  await fake?.close();
  await s3?.close();
  await redis?.kill();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const [i, gateway] of processes.entries()) console.error(`--- process ${i} (${gateway.url})\n${gateway.output().slice(-3000)}`);
  });
});

interface Traffic {
  calls: BoundedResult[];
  /** Video submits: what the client saw, with the prompt it sent. */
  submits: Array<BoundedResult & { prompt: string }>;
}

/** Chat calls, streams and video submits through the balancer until `stop`. */
function steadyTraffic(stop: AbortSignal): Promise<Traffic> {
  const traffic: Traffic = { calls: [], submits: [] };
  const chatWorker = (stream: boolean, w: number) => async () => {
    for (let i = 0; !stop.aborted; i++) {
      const body = JSON.stringify({ model: MODEL, max_tokens: 30, stream, messages: [{ role: 'user', content: 'Tell me about lighthouses.' }] });
      const headers = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };
      traffic.calls.push(
        await requestOnNewConnection(
          `${stream ? 'stream' : 'chat'} ${w}:${i}`,
          `${balancer.url}/v1/chat/completions`,
          { method: 'POST', headers, body },
          DEADLINE_MS,
        ),
      );
    }
  };
  const videoWorker = async () => {
    for (let i = 0; !stop.aborted; i++) {
      const prompt = `fleet video ${i}`;
      const headers = { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' };
      const result = await requestOnNewConnection(
        `video ${i}`,
        `${balancer.url}/videogen1/video`,
        { method: 'POST', headers, body: JSON.stringify({ prompt }) },
        DEADLINE_MS,
      );
      traffic.submits.push({ ...result, prompt });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const workers = [chatWorker(false, 0), chatWorker(false, 1), chatWorker(true, 2), chatWorker(true, 3), videoWorker];
  return Promise.all(workers.map((worker) => worker())).then(() => traffic);
}

/** Revokes each tenant's key through one replica in turn; answers how long each other replica took to refuse it. */
async function revokeEach(tenants: Tenant[]): Promise<number[]> {
  const felt: number[] = [];
  for (const [i, tenant] of tenants.entries()) {
    const via = i % REPLICAS;
    const others = replicas.filter((_, j) => j !== via).map((gateway) => gateway.url);
    felt.push(...(await timeRevocation(replicas[via].url, others, tenant.keyId, tenant.key)).feltAfterMs);
  }
  return felt;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('kill -9 one replica and drain another under chat, stream and video traffic: no task lost or submitted twice, usage once, media shared, revocation within 100 ms', async () => {
  const tenants: Tenant[] = [];
  for (let i = 0; i < 10; i++) tenants.push(await createTenant(replicas[0].url, MASTER_KEY, `fleet-${i}@example.com`));

  const stop = new AbortController();
  const running = steadyTraffic(stop.signal);
  await sleep(2_000);

  // kill -9 replica 1; a moment later SIGTERM replica 2, which drains (new connections refused) and exits.
  replicas[1].child.kill('SIGKILL');
  expect((await replicas[1].exited).signal).toBe('SIGKILL');
  await sleep(1_000);
  const drained = replicas[2];
  drained.child.kill('SIGTERM');
  const drainExit = await drained.exited;
  expect(drainExit.code, drained.output().slice(-2000)).toBe(0);

  // Both come back on their ports; the killed one folds its journal into the database at start.
  await Promise.all([startReplica(1), startReplica(2)]);
  await sleep(1_500);

  // Revocation under load: reported, and felt everywhere (by notice or, at worst, the safety poll).
  const feltUnderLoad = await revokeEach(tenants.slice(0, 5));
  stop.abort();
  const traffic = await running;
  // Revocation on the settled fleet: the 100 ms promise.
  const feltQuiet = await revokeEach(tenants.slice(5));

  // Every accepted task ends succeeded, submitted upstream once.
  const accepted = traffic.submits.filter((submit) => submit.status === 200);
  expect(accepted.length).toBeGreaterThan(5);
  const taskIds = accepted.map((submit) => String(submit.json?.data?.task_id));
  const state = await eventually(
    () => readTasks(database.url),
    (read) => taskIds.every((id) => ['succeeded', 'failed', 'canceled'].includes(read.tasks.find((task) => task.id === id)?.status ?? '')),
    30_000,
  );
  const byId = new Map(state.tasks.map((task) => [task.id, task]));
  expect(taskIds.filter((id) => byId.get(id)?.status !== 'succeeded').map((id) => `${id} ${byId.get(id)?.status} ${byId.get(id)?.error_code}`)).toEqual([]);
  const submitsByPrompt = new Map<string, number>();
  for (const request of fake.submits()) {
    const prompt = String((request.body as { prompt?: unknown }).prompt);
    submitsByPrompt.set(prompt, (submitsByPrompt.get(prompt) ?? 0) + 1);
  }
  expect([...submitsByPrompt].filter(([, count]) => count > 1)).toEqual([]);
  for (const submit of accepted) expect(submitsByPrompt.get(submit.prompt), submit.prompt).toBe(1);
  // A submit whose answer was lost in a kill may still have made a task: it too ends, submitted at most once.
  for (const task of state.tasks) expect(['succeeded', 'failed', 'canceled'], `${task.id} ${task.status}`).toContain(task.status);

  // Usage: one row per completed call and per task; tasks reserved once and settled once.
  const completed = traffic.calls.filter(chatCompleted);
  expect(completed.length).toBeGreaterThan(20);
  const wanted = [...completed.map((call) => call.requestId as string), ...state.tasks.map((task) => `task:${task.id}`)];
  const rows = byRequestId(
    await eventually(
      () => readUsage(database.url),
      (read) => {
        const seen = new Set(read.map((row) => row.request_id));
        return wanted.every((id) => seen.has(id));
      },
      15_000,
    ),
  );
  expect(wanted.filter((id) => rows.get(id)?.length !== 1).map((id) => `${id}: ${rows.get(id)?.length ?? 0} rows`)).toEqual([]);
  for (const id of taskIds) {
    expect(
      state.ledger.filter((entry) => entry.task_id === id).map((entry) => entry.kind),
      id,
    ).toEqual(['reserve', 'settle']);
  }

  // Media: the videos are in the bucket, served whole by every replica once the vendor's links expired.
  fake.expireFiles();
  for (const id of taskIds.slice(0, 4)) {
    const expected = fake.videoOf(byId.get(id)?.upstream_id as string);
    for (const gateway of replicas) {
      const response = await fetch(`${gateway.url}/v1/videos/${id}/download`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
      expect(response.status, `${id} from ${gateway.url}`).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(expected), `${id} from ${gateway.url}`).toBe(true);
    }
  }

  // Nothing hung; no 500 (503s from the draining replica and cut connections from the killed one are allowed).
  const all = [...traffic.calls, ...traffic.submits];
  expect(all.filter((result) => result.timedOut).map((result) => result.label)).toEqual([]);
  expect(
    all.filter((result) => result.status >= 500 && result.status !== 503).map((result) => `${result.label} ${result.status} ${result.body.slice(0, 200)}`),
  ).toEqual([]);

  const statuses: Record<string, number> = {};
  for (const result of all) statuses[result.status] = (statuses[result.status] ?? 0) + 1;
  console.info(
    `fleet: ${traffic.calls.length} calls (${completed.length} completed), ${traffic.submits.length} video submits (${accepted.length} accepted), statuses ${JSON.stringify(statuses)}; connections per backend ${balancer.served}; revocation felt after (ms, from the revoke's answer) under load ${feltUnderLoad}, quiet ${feltQuiet}`,
  );
  // Felt by notice everywhere: far below the 5 s safety poll even under load. The 100 ms promise is
  // held by the settled fleet's median; its slowest sample gets slack for a shared, oversubscribed
  // machine (other test runs beside this one), where one process can wait hundreds of ms for a core.
  for (const ms of feltUnderLoad) expect(ms).toBeLessThan(5_000);
  const quiet = [...feltQuiet].sort((a, b) => a - b);
  expect(quiet[Math.floor(quiet.length / 2)]).toBeLessThan(REVOCATION_MS);
  expect(quiet.at(-1)).toBeLessThan(5 * REVOCATION_MS);
}, 120_000);
