import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/key-admin.js';
import { channelDefaults } from '../config/defaults.js';
import { AccountsRepository } from './accounts-repository.js';
import { ApiKeysRepository } from './api-keys-repository.js';
import { ChannelsRepository } from './channels-repository.js';
import { CredentialCipher } from './credential-cipher.js';
import type { InvalidationTopic } from './invalidation-bus.js';
import { type OpenedStore, openStore } from './open-store.js';
import { StoreInvalidationBus } from './store-invalidation-bus.js';
import { readRevisions } from './store-revisions.js';

describe('StoreInvalidationBus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-bus-'));
  const url = `sqlite:${join(dir, 'shared.db')}`;
  // Two connections to one file stand for two processes.
  let writer: OpenedStore;
  let reader: OpenedStore;
  beforeAll(async () => {
    writer = await openStore(url);
    reader = await openStore(url);
  });
  afterAll(async () => {
    await writer.close();
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function listen(bus: StoreInvalidationBus): InvalidationTopic[] {
    const heard: InvalidationTopic[] = [];
    for (const topic of ['keys', 'channels', 'catalog'] as const) bus.subscribe(topic, () => heard.push(topic));
    return heard;
  }

  it('publishes at once locally, and a topic another connection changed on its next poll', async () => {
    const bus = new StoreInvalidationBus(reader.db, { pollMs: 60_000 });
    await bus.start();
    const heard = listen(bus);
    bus.publish('catalog');
    expect(heard).toEqual(['catalog']);
    heard.length = 0;

    await bus.poll();
    expect(heard).toEqual([]);
    const keys = new ApiKeysRepository(writer.db);
    const { record } = await createApiKey(keys, { name: 'a' });
    await bus.poll();
    expect(heard).toEqual(['keys']);
    await bus.poll();
    expect(heard).toEqual(['keys']);
    await keys.revoke(record.id, Date.now());
    // Revoking a revoked key changes nothing, so nothing is published.
    await keys.revoke(record.id, Date.now());
    await bus.poll();
    expect(heard).toEqual(['keys', 'keys']);
    await bus.close();
  });

  it('hears channel writes and the disabling of accounts, not other account changes', async () => {
    const bus = new StoreInvalidationBus(reader.db, { pollMs: 60_000 });
    await bus.start();
    const heard = listen(bus);
    const channels = new ChannelsRepository(writer.db, new CredentialCipher(Buffer.alloc(32, 7)));
    const definition = { ...channelDefaults(), name: 'c1', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] };
    await channels.insert(definition);
    await bus.poll();
    await channels.update('c1', { ...definition, weight: 3 });
    await channels.update('absent', definition);
    await bus.poll();
    await channels.delete('c1');
    await bus.poll();
    expect(heard).toEqual(['channels', 'channels', 'channels']);
    heard.length = 0;

    const accounts = new AccountsRepository(writer.db);
    const now = Date.now();
    await accounts.insert({
      id: 'acc1',
      email: 'a@example.com',
      role: 'member',
      passwordHash: null,
      models: null,
      createdAt: now,
      updatedAt: now,
      disabledAt: null,
    });
    await accounts.update('acc1', { role: 'admin' });
    await bus.poll();
    expect(heard).toEqual([]);
    await accounts.update('acc1', { disabledAt: now });
    await bus.poll();
    expect(heard).toEqual(['keys']);
    await bus.close();
  });

  it('polls on its own, never two polls at once, stops on close, and survives a failing poll', async () => {
    const own = await openStore(url);
    const bus = new StoreInvalidationBus(own.db, { pollMs: 5 });
    await bus.start();
    const heard = listen(bus);
    expect(bus.poll()).toBe(bus.poll());
    await createApiKey(new ApiKeysRepository(writer.db), { name: 'b' });
    const deadline = Date.now() + 2_000;
    while (heard.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(heard).toEqual(['keys']);

    await bus.close();
    await createApiKey(new ApiKeysRepository(writer.db), { name: 'c' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual(['keys']);

    await own.close();
    // The database is gone: a poll fails quietly (it is logged when the bus has a logger).
    await expect(bus.poll()).resolves.toBeUndefined();
    expect((await readRevisions(writer.db)).get('keys')).toBeGreaterThan(0);
  });
});
