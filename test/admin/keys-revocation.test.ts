/**
 * Revocation reaches every running process within a second: two real `gengate start` processes
 * on one database; a key made and revoked through the first one's admin API is refused by the
 * second within 1 s of the revocation (SQLite file and PostgreSQL).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from '../faults/gateway-process.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { AdminClient } from './admin-client.js';

const root = mkdtempSync(join(tmpdir(), 'gengate-revocation-'));
const running: GatewayProcess[] = [];
const databases: TempDatabase[] = [];

afterAll(async () => {
  for (const gateway of running) {
    if (gateway.child.exitCode === null) {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  }
  for (const database of databases) await database.drop();
  rmSync(root, { recursive: true, force: true });
});

async function startOn(databaseUrl: string, name: string): Promise<GatewayProcess> {
  const dataDir = join(root, name);
  mkdirSync(dataDir, { recursive: true });
  const gateway = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 100_000 });
  running.push(gateway);
  return gateway;
}

/** The status a key gets from a process (an authenticated, cheap request). */
async function statusOn(gateway: GatewayProcess, key: string): Promise<number> {
  const answer = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  await answer.arrayBuffer();
  return answer.status;
}

async function chatStatus(gateway: GatewayProcess, key: string): Promise<number> {
  const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'Hello!' }] }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

async function revokeReachesTheOtherProcess(databaseUrl: string, name: string): Promise<void> {
  // One after the other: the first applies the migrations.
  const first = await startOn(databaseUrl, `${name}-a`);
  const second = await startOn(databaseUrl, `${name}-b`);
  const admin = new AdminClient(first.url, MASTER_KEY);

  // Three rounds, so a slow reload that happens to land soon after one revocation cannot pass by luck.
  for (let round = 0; round < 3; round++) {
    const created = await admin.call('POST', '/keys', { name: `shared ${round}` });
    expect(created.status).toBe(201);
    const { secret, key } = created.body;
    expect(await chatStatus(first, secret)).toBe(200);
    expect(await chatStatus(second, secret)).toBe(200);
    // The second process has the key in memory now (it authenticated it), so only a reload can stop it.
    expect(await statusOn(second, secret)).toBe(200);

    const revoked = await admin.call('DELETE', `/keys/${key.id}`);
    expect(revoked.status).toBe(200);
    const revokedAt = Date.now();
    expect(await statusOn(first, secret)).toBe(401);
    let status = await statusOn(second, secret);
    while (status !== 401 && Date.now() - revokedAt < 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      status = await statusOn(second, secret);
    }
    const tookMs = Date.now() - revokedAt;
    expect(status).toBe(401);
    expect(tookMs, `round ${round}: refused after ${tookMs} ms`).toBeLessThan(1_000);
    expect(await chatStatus(second, secret)).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 100 + round * 300));
  }
}

describe('revoking a key reaches every process within a second', () => {
  it('two processes on one SQLite file', async () => {
    await revokeReachesTheOtherProcess(`sqlite:${join(root, 'shared.db')}`, 'sqlite');
  }, 120_000);

  it('two processes on one PostgreSQL database', async () => {
    const database = await createTempDatabase();
    databases.push(database);
    await revokeReachesTheOtherProcess(database.url, 'postgres');
  }, 120_000);
});
