/**
 * Issue 27: PostgreSQL crashes mid-traffic and comes back. Two real gateway processes share a
 * PostgreSQL of the test's own (never the machine's shared one), which is stopped with
 * `pg_ctl stop -m immediate` while chat calls and streams keep coming, kept down for a few
 * seconds, and started again. While it is down: calls of keys the gateways hold in memory are
 * served (their usage goes to the journal), whatever needs the database — an unknown key, the
 * admin API, a task submit — answers a clear 503 in its surface's shape within 5 s (never a 500,
 * never a hang), and `/readyz` says not ready, naming the store. Once it is back: `/readyz` says
 * ready, every call served during the outage has exactly one usage row, and a revocation through
 * one replica reaches the other by notice again (its LISTEN connection came back).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { randomId } from '../../src/core/ids.js';
import { createTenant, type Tenant } from '../helpers/webhook-tenants.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { type BoundedResult, boundedRequest, chatCompleted, chatRequest } from './helpers/bounded-request.js';
import { eventually } from './helpers/eventually.js';
import { type PrivatePostgres, startPrivatePostgres } from './helpers/private-postgres.js';
import { timeRevocation } from './helpers/revocation.js';
import { readUsage } from './read-usage.js';

const MODEL = 'textmodel-b-4o-mini';
/** Every request's deadline: an answer later than this is a hang. */
const QUICK_MS = 5_000;
const OUTAGE_MS = 3_000;
/** The warm-up calls' deadline (cold code on a loaded host). */
const WARM_MS = 30_000;

let postgres: PrivatePostgres;
let databaseUrl: string;
const dataDir = mkdtempSync(join(tmpdir(), 'gengate-pgrestart-'));
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  databaseUrl = await postgres.createDatabase('gengate');
  const start = (index: number) => startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 400, configName: `gengate-${index}.yaml` });
  gateways.push(await start(0));
  gateways.push(await start(1));
}, 300_000);

afterAll(async () => {
  for (const gateway of gateways) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await Promise.all(gateways.map((gateway) => gateway.exited));
  await postgres?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const [i, gateway] of gateways.entries()) console.error(`--- gateway ${i}\n${gateway.output().slice(-4000)}`);
    console.error(`--- postgres\n${postgres?.log().slice(-3000)}`);
  });
});

/** Chat calls and streams, alternating gateways and keys, one after another per worker, until `stop`. */
function steadyTraffic(keys: string[], stop: AbortSignal): Promise<BoundedResult[]> {
  const results: BoundedResult[] = [];
  const worker = async (w: number) => {
    for (let i = 0; !stop.aborted; i++) {
      const url = gateways[(w + i) % gateways.length].url;
      results.push(await chatRequest(`${w}:${i}`, url, keys[(w + i) % keys.length], MODEL, i % 2 === 1, QUICK_MS));
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
  };
  return Promise.all([0, 1, 2, 3].map(worker)).then(() => results);
}

function adminGet(url: string, path: string): Promise<BoundedResult> {
  return boundedRequest(`GET ${path}`, `${url}/admin/v1${path}`, { headers: { authorization: `Bearer ${MASTER_KEY}` } }, QUICK_MS);
}

function readyz(url: string): Promise<BoundedResult> {
  return boundedRequest('readyz', `${url}/readyz`, {}, QUICK_MS);
}

it('PostgreSQL crashed mid-traffic: cached keys keep being served and journaled, database work answers a quick 503, /readyz not ready; back: every usage row arrives once, notices flow again', async () => {
  const tenant: Tenant = await createTenant(gateways[0].url, MASTER_KEY, 'pg-restart@example.com');
  const spare: Tenant = await createTenant(gateways[0].url, MASTER_KEY, 'pg-restart-spare@example.com');
  // Both gateways hold the tenant's keys in memory before the outage.
  for (const gateway of gateways) {
    // (Warm-up, not measured: a loaded host may take longer than QUICK_MS to run a process's first call.)
    for (const key of [tenant.key, spare.key]) expect(chatCompleted(await chatRequest('warm', gateway.url, key, MODEL, false, WARM_MS))).toBe(true);
  }

  const stop = new AbortController();
  const traffic = steadyTraffic([tenant.key, MASTER_KEY], stop.signal);
  await new Promise((resolve) => setTimeout(resolve, 500));

  await postgres.crash();
  const downAt = Date.now();
  // Let the pools notice: their idle connections are gone.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const unknownKey = `gg-${randomId(10)}${randomId(32)}`;
  const outage: BoundedResult[] = [];
  for (const gateway of gateways) {
    outage.push(await chatRequest('unknown key', gateway.url, unknownKey, MODEL, false, QUICK_MS));
    outage.push(await adminGet(gateway.url, '/keys'));
    outage.push(await adminGet(gateway.url, '/usage/records'));
    outage.push(
      await boundedRequest(
        'imgtask submit',
        `${gateway.url}/imgtask/submit/imagine`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: 'a lighthouse' }),
        },
        QUICK_MS,
      ),
    );
  }
  const readyDuring = await Promise.all(gateways.map((gateway) => readyz(gateway.url)));
  const remaining = OUTAGE_MS - (Date.now() - downAt);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));

  await postgres.start();
  const upAt = Date.now();
  const readyAfter = await Promise.all(
    gateways.map((gateway) =>
      eventually(
        () => readyz(gateway.url),
        (result) => result.status === 200,
        15_000,
      ),
    ),
  );
  const readyAfterMs = Date.now() - upAt;
  await new Promise((resolve) => setTimeout(resolve, 500));
  stop.abort();
  const results = await traffic;

  // Nothing hung, nothing answered a 500, during or around the outage.
  const everything = [...results, ...outage];
  const slow = everything.filter((result) => result.timedOut || result.ms >= QUICK_MS);
  expect(slow.map((r) => `${r.label} ${r.status} ${r.ms} ms ${r.error ?? ''}`)).toEqual([]);
  expect(everything.filter((r) => r.status >= 500 && r.status !== 503).map((r) => `${r.label} ${r.status} ${r.body.slice(0, 200)}`)).toEqual([]);
  expect(everything.filter((r) => r.status === 0).map((r) => `${r.label} ${r.error}`)).toEqual([]);

  // What needs the database said so, in its surface's shape.
  for (const result of outage) {
    expect(result.status, `${result.label}: ${result.body.slice(0, 300)}`).toBe(503);
    if (result.label.startsWith('GET ')) {
      expect(result.json?.error?.code).toBe('database_unavailable');
      expect(result.json?.error?.message).toMatch(/database/i);
    }
    if (result.label === 'unknown key') expect(result.json?.error?.message).toMatch(/database/i);
  }
  for (const result of readyDuring) {
    expect(result.status, result.body).toBe(503);
    expect(result.json?.status).toBe('not_ready');
    expect(result.json?.checks?.store, result.body).not.toBe('ok');
  }
  for (const result of readyAfter) expect(result.status, result.body).toBe(200);

  // Calls kept being served through the outage, and every one served has exactly one usage row.
  const served = results.filter(chatCompleted);
  const servedDuring = served.filter((result) => result.startedAt > downAt && result.startedAt + result.ms < upAt);
  expect(results.filter((r) => r.status === 200).length).toBe(served.length);
  expect(servedDuring.length).toBeGreaterThan(10);
  const ids = new Set(served.map((result) => result.requestId as string));
  const rows = await eventually(
    () => readUsage(databaseUrl),
    (read) => [...ids].every((id) => read.some((row) => row.request_id === id)),
    15_000,
  );
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.request_id, (counts.get(row.request_id) ?? 0) + 1);
  expect([...ids].filter((id) => counts.get(id) !== 1)).toEqual([]);

  // Notices flow again: a revocation through one gateway is felt by the other by notice, not by the 5 s safety poll.
  const timing = await timeRevocation(gateways[0].url, [gateways[1].url], spare.keyId, spare.key);
  console.info(
    `postgres restart: ready again ${readyAfterMs} ms after start; ${served.length} calls served (${servedDuring.length} while it was down); revocation felt after ${timing.feltAfterMs} ms`,
  );
  expect(timing.feltAfterMs[0]).toBeLessThan(1_000);
}, 90_000);
