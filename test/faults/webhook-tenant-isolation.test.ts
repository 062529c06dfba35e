/**
 * Finding 3 of issue 23 against real gateway processes: one tenant's webhook receiver accepts
 * every delivery and never answers; another tenant's hook still goes out within a bound after
 * its task finished, the hanging tenant never holds more than its account's share of delivery
 * slots, and its deliveries stay in the outbox. On SQLite with one process, and on PostgreSQL
 * with two processes sharing the outbox (the account's share holds over both).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { createTenant, type Receiver, startHangingReceiver, startPromptReceiver, submitImagine, untilTaskEnds, waitUntil } from '../helpers/webhook-tenants.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { query } from './read-tasks.js';

const TENANT_A_TASKS = 30;
/** Tenant B's hook, after its task finished (the outbox is looked at every 250 ms while it has work). */
const BOUND_MS = 2_500;
/** `tasks.webhookAccountConcurrency`'s default. */
const ACCOUNT_SHARE = 4;

const dirs: string[] = [];
const databases: TempDatabase[] = [];
let processes: GatewayProcess[] = [];
let receivers: Receiver[] = [];

afterEach(async () => {
  for (const gateway of processes) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await Promise.all(processes.map((gateway) => gateway.exited));
  await Promise.all(receivers.map((receiver) => receiver.close()));
  processes = [];
  receivers = [];
});

afterAll(async () => {
  delete process.env.GENGATE_SANDBOX_TASK_MS;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

async function startGateways(databaseUrl: string, dataDir: string, count: number): Promise<GatewayProcess[]> {
  // Short sandbox tasks (the child inherits this environment); loopback receivers allowed.
  process.env.GENGATE_SANDBOX_TASK_MS = '300';
  const started: GatewayProcess[] = [];
  for (let i = 0; i < count; i++) {
    const gateway = await startGatewayProcess({
      dataDir,
      databaseUrl,
      tokensPerSecond: 1000,
      extraYaml: 'media:\n  allowPrivateUrls: true\n',
      configName: `gengate-${i}.yaml`,
    });
    processes.push(gateway);
    started.push(gateway);
  }
  return started;
}

async function tenantAStatuses(databaseUrl: string, keyId: string): Promise<string[]> {
  const [rows] = await query(databaseUrl, [`select status from webhook_deliveries where owner = '${keyId.replace(/'/g, "''")}'`]);
  return rows.map((row) => String(row.status));
}

async function scenario(databaseUrl: string, gateways: GatewayProcess[]): Promise<void> {
  const hanging = await startHangingReceiver();
  const prompt = await startPromptReceiver();
  receivers.push(hanging, prompt);
  const a = await createTenant(gateways[0].url, MASTER_KEY, 'tenant-a@example.com');
  const b = await createTenant(gateways[0].url, MASTER_KEY, 'tenant-b@example.com');
  // The key directory of every process learns the new keys within a second.
  const last = gateways.at(-1)!;
  await waitUntil(
    async () => (await fetch(`${last.url}/imgtask/task/none/fetch`, { headers: { authorization: `Bearer ${b.key}` } })).status !== 401,
    5_000,
    'the keys reach every process',
  );

  // Tenant A's imagines go through every process, so every process has its deliveries to send.
  await Promise.all(Array.from({ length: TENANT_A_TASKS }, (_, i) => submitImagine(gateways[i % gateways.length].url, a.key, `tenant a ${i}`, hanging.url)));
  await waitUntil(() => hanging.open() >= ACCOUNT_SHARE, 20_000, "tenant A's hanging receiver holds the account's share");

  const id = await submitImagine(last.url, b.key, 'tenant b', prompt.url);
  const record = await untilTaskEnds(last.url, b.key, id);
  expect(record.status).toBe('SUCCESS');
  const isFinal = (hook: { body: string }) => {
    const body = JSON.parse(hook.body);
    return body.id === id && body.status === 'SUCCESS';
  };
  await waitUntil(() => prompt.received.some(isFinal), 15_000, "tenant B's final hook");
  expect(prompt.received.find(isFinal)!.at - record.finishTime).toBeLessThan(BOUND_MS);
  expect(hanging.open()).toBeGreaterThan(0);
  expect(hanging.mostOpen()).toBeLessThanOrEqual(ACCOUNT_SHARE);

  const statuses = await tenantAStatuses(databaseUrl, a.keyId);
  expect(statuses.length).toBeGreaterThanOrEqual(TENANT_A_TASKS);
  expect(statuses.every((status) => status === 'pending')).toBe(true);
}

describe('webhook tenant isolation (real gateway processes)', () => {
  it("finding 3: SQLite — one tenant's hanging webhook receiver does not delay another tenant's hook", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gengate-webhook-fair-'));
    dirs.push(dir);
    const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
    await scenario(databaseUrl, await startGateways(databaseUrl, dir, 1));
  }, 360_000);

  it("finding 3: PostgreSQL, two processes — one tenant's hanging receiver does not delay another's hook, and its account's share holds over both", async () => {
    const database = await createTempDatabase();
    databases.push(database);
    const dir = mkdtempSync(join(tmpdir(), 'gengate-webhook-fair-'));
    dirs.push(dir);
    await scenario(database.url, await startGateways(database.url, dir, 2));
  }, 360_000);
});
