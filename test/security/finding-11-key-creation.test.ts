/**
 * Finding 11: key creation was unbounded for members, and each creation reloaded every key. A
 * member's account holds at most `limits.maxKeysPerAccount` active keys (409 in the admin error
 * shape past it, even for creations sent all at once; admins are not limited), and a creation or
 * revocation updates the key directory by the changed key alone — here and on another process of
 * the same database — never by listing every key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { AdminClient, signedInClient } from '../admin/admin-client.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

const MASTER = 'gg-master-key-creation-0123456789';
const running: RunningGateway[] = [];
const databases: TempDatabase[] = [];
const root = mkdtempSync(join(tmpdir(), 'gengate-keycap-'));

afterAll(async () => {
  for (const gateway of running) await gateway.close();
  for (const database of databases) await database.drop();
  rmSync(root, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startGateway>[0]): Promise<RunningGateway> {
  const gateway = await startGateway({ masterKey: MASTER, ...options });
  running.push(gateway);
  return gateway;
}

async function modelsStatus(url: string, key: string): Promise<number> {
  const answer = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  await answer.arrayBuffer();
  return answer.status;
}

describe('finding 11: key creation', () => {
  it('finding 11: a member hits the key cap with a clear 409; revoking a key makes room; an admin is not limited', async () => {
    const gateway = await start({ limits: { maxKeysPerAccount: 3 } });
    const member = await signedInClient(gateway, 'capped@example.com', 'member');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await member.call('POST', '/keys', { name: `key ${i}` });
      expect(created.status).toBe(201);
      ids.push(created.body.key.id);
    }
    const refused = await member.call('POST', '/keys', { name: 'one too many' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: { code: 'key_limit_reached', message: expect.stringMatching(/already holds 3 active keys.*revoke one/), requestId: expect.any(String) },
    });
    const listed = await member.call('GET', '/keys?limit=100');
    expect(listed.body.data).toHaveLength(3);

    expect((await member.call('DELETE', `/keys/${ids[0]}`)).status).toBe(200);
    expect((await member.call('POST', '/keys', { name: 'in the freed place' })).status).toBe(201);
    expect((await member.call('POST', '/keys', { name: 'again too many' })).status).toBe(409);

    // Admins (here the master key) may give the account more keys.
    const admin = new AdminClient(gateway.url, MASTER);
    const granted = await admin.call('POST', '/keys', { name: 'granted by an admin', accountId: member.accountId });
    expect(granted.status).toBe(201);
    expect(await modelsStatus(gateway.url, granted.body.secret)).toBe(200);
  });

  for (const store of ['SQLite', 'PostgreSQL'] as const) {
    it(`finding 11: ${store} — creations sent all at once cannot pass the cap together`, async () => {
      let databaseUrl = `sqlite:${join(root, 'concurrent.db')}`;
      if (store === 'PostgreSQL') {
        const database = await createTempDatabase();
        databases.push(database);
        databaseUrl = database.url;
      }
      const gateway = await start({ databaseUrl, limits: { maxKeysPerAccount: 5 } });
      const member = await signedInClient(gateway, `burst-${store}@example.com`, 'member');
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => member.call('POST', '/keys', { name: `burst ${i}` })));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(15);
      expect((await member.call('GET', '/keys?limit=100')).body.data).toHaveLength(5);
    }, 60_000);
  }

  it('finding 11: creating and revoking keys updates the key directory by the changed key, never by reading every key', async () => {
    const gateway = await start({});
    const fullReads = vi.spyOn(gateway.gateway.keys, 'list');
    const changedReads = vi.spyOn(gateway.gateway.keys, 'changedSince');
    const member = await signedInClient(gateway, 'many@example.com', 'member');
    const secrets: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const created = await member.call('POST', '/keys', { name: `key ${i}` });
      expect(created.status).toBe(201);
      secrets.push(created.body.secret);
      ids.push(created.body.key.id);
    }
    expect(fullReads).not.toHaveBeenCalled();
    // Each incremental read found the few keys changed since the one before, not every key.
    const rowsRead = await Promise.all(changedReads.mock.results.map((result) => result.value as Promise<unknown[]>));
    expect(Math.max(...rowsRead.map((rows) => rows.length))).toBeLessThanOrEqual(2);
    for (const secret of secrets.slice(-5)) expect(await modelsStatus(gateway.url, secret)).toBe(200);

    expect((await member.call('DELETE', `/keys/${ids[3]}`)).status).toBe(200);
    expect(await modelsStatus(gateway.url, secrets[3])).toBe(401);
    expect(fullReads).not.toHaveBeenCalled();
  });

  it('finding 11: another process on the same database applies a revocation by the changed key, within a second', async () => {
    const databaseUrl = `sqlite:${join(root, 'shared.db')}`;
    const first = await start({ databaseUrl });
    const second = await start({ databaseUrl });
    const admin = new AdminClient(first.url, MASTER);
    const created = await admin.call('POST', '/keys', { name: 'shared' });
    expect(await modelsStatus(second.url, created.body.secret)).toBe(200);
    const fullReads = vi.spyOn(second.gateway.keys, 'list');

    expect((await admin.call('DELETE', `/keys/${created.body.key.id}`)).status).toBe(200);
    const revokedAt = Date.now();
    await vi.waitFor(async () => expect(await modelsStatus(second.url, created.body.secret)).toBe(401), { timeout: 2_000, interval: 10 });
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    expect(fullReads).not.toHaveBeenCalled();
  });
});
