/**
 * Issue 27: Redis restarted mid-traffic, where Redis also carries the change notices (two
 * processes sharing a SQLite file and a private Redis: pub/sub tells one what the other changed).
 * While chat calls and streams keep coming through both, Redis is killed and started again,
 * empty, on the same port. Traffic never hangs and never sees a 500; while Redis is gone a key
 * revoked through one process is still refused by the other within a second (the notifier knows
 * it is down, and the bus polls fast); once Redis is back the subscriber has subscribed again, so
 * revocations are felt by notice — not by the 5 s safety poll a notifier that believed itself
 * listening would leave them to. (The limits' own failure policy across a Redis restart is
 * `limits-redis-down.test.ts`.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/webhook-tenants.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { type BoundedResult, chatCompleted, chatRequest } from './helpers/bounded-request.js';
import { type PrivateRedis, startPrivateRedis } from './helpers/private-redis.js';
import { timeRevocation } from './helpers/revocation.js';

const MODEL = 'textmodel-b-4o-mini';
const QUICK_MS = 5_000;
/** Far below the 5 s safety poll of a bus whose notifier says it listens. */
const FELT_MS = 1_000;

let redis: PrivateRedis;
const dataDir = mkdtempSync(join(tmpdir(), 'gengate-redisrestart-'));
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
  const start = (index: number) =>
    startGatewayProcess({
      dataDir,
      databaseUrl: `sqlite:${join(dataDir, 'gengate.db')}`,
      tokensPerSecond: 400,
      configName: `gengate-${index}.yaml`,
      env: { GENGATE_REDIS_URL: redis.url },
    });
  gateways.push(await start(0));
  gateways.push(await start(1));
}, 300_000);

afterAll(async () => {
  for (const gateway of gateways) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await Promise.all(gateways.map((gateway) => gateway.exited));
  await redis?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const [i, gateway] of gateways.entries()) console.error(`--- gateway ${i}\n${gateway.output().slice(-4000)}`);
    console.error(`--- redis\n${redis?.output().slice(-2000)}`);
  });
});

function steadyTraffic(stop: AbortSignal): Promise<BoundedResult[]> {
  const results: BoundedResult[] = [];
  const worker = async (w: number) => {
    for (let i = 0; !stop.aborted; i++) {
      results.push(await chatRequest(`${w}:${i}`, gateways[(w + i) % gateways.length].url, MASTER_KEY, MODEL, i % 2 === 0, QUICK_MS));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  };
  return Promise.all([0, 1, 2].map(worker)).then(() => results);
}

async function feltAfter(tenants: Tenant[]): Promise<number[]> {
  const felt: number[] = [];
  for (const [i, tenant] of tenants.entries()) {
    const via = i % 2;
    felt.push(...(await timeRevocation(gateways[via].url, [gateways[1 - via].url], tenant.keyId, tenant.key)).feltAfterMs);
  }
  return felt;
}

it('Redis killed and restarted mid-traffic: no call hangs or fails with a 500; revocations are felt while it is gone, and by notice again once it is back', async () => {
  const tenants: Tenant[] = [];
  for (let i = 0; i < 11; i++) tenants.push(await createTenant(gateways[0].url, MASTER_KEY, `redis-restart-${i}@example.com`));

  const stop = new AbortController();
  const traffic = steadyTraffic(stop.signal);
  await new Promise((resolve) => setTimeout(resolve, 500));

  // The first revocations through and into each process run cold code; they are not what is measured.
  await feltAfter(tenants.slice(9));
  const before = await feltAfter(tenants.slice(0, 3));
  await redis.kill();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const whileDown = await feltAfter(tenants.slice(3, 6));

  await redis.restart();
  // Both notifier connections retry at least every second, however long Redis was gone.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const afterRestart = await feltAfter(tenants.slice(6, 9));
  stop.abort();
  const results = await traffic;

  expect(results.filter((r) => r.timedOut || r.ms >= QUICK_MS).map((r) => `${r.label} ${r.status} ${r.ms} ms`)).toEqual([]);
  expect(results.filter((r) => r.status !== 200).map((r) => `${r.label} ${r.status} ${r.body.slice(0, 200)}`)).toEqual([]);
  expect(results.filter((r) => !chatCompleted(r)).map((r) => r.label)).toEqual([]);
  expect(results.length).toBeGreaterThan(20);

  console.info(
    `redis restart: ${results.length} calls; revocation felt after (ms) before ${before}, while down ${whileDown}, after the restart ${afterRestart}`,
  );
  for (const ms of [...before, ...whileDown, ...afterRestart]) expect(ms).toBeLessThan(FELT_MS);
}, 90_000);
