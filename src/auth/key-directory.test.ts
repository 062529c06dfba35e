import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../store/api-keys-repository.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { createApiKey } from './key-admin.js';
import { KeyDirectory } from './key-directory.js';

describe('KeyDirectory', () => {
  let store: OpenedStore;
  let keys: ApiKeysRepository;

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    keys = new ApiKeysRepository(store.db);
  });
  afterEach(() => store.close());

  it('accepts a stored key and reports its restrictions', async () => {
    const { key, record } = await createApiKey(keys, { name: 'app', models: ['textmodel-b-*'] });
    const directory = new KeyDirectory(keys, undefined);
    await directory.start();
    expect(await directory.authenticate(key)).toEqual({ id: record.id, name: 'app', models: ['textmodel-b-*'], isMaster: false, accountId: null });
    directory.stop();
  });

  it('finds a key created after it loaded (by another process) without a restart', async () => {
    const directory = new KeyDirectory(keys, undefined);
    await directory.start();
    const { key } = await createApiKey(keys, { name: 'later' });
    await expect(directory.authenticate(key)).resolves.toMatchObject({ name: 'later' });
    directory.stop();
  });

  it('refuses missing, unknown, tampered, revoked and expired keys with authentication errors', async () => {
    const { key, record } = await createApiKey(keys, { name: 'a' });
    const expired = await createApiKey(keys, { name: 'old', expiresAt: Date.now() - 1000 });
    const directory = new KeyDirectory(keys, undefined);
    await directory.start();
    await expect(directory.authenticate(undefined)).rejects.toMatchObject({ kind: 'authentication', status: 401 });
    await expect(directory.authenticate('sk-not-ours')).rejects.toMatchObject({ kind: 'authentication' });
    const tampered = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    await expect(directory.authenticate(tampered)).rejects.toMatchObject({ kind: 'authentication' });
    await expect(directory.authenticate(expired.key)).rejects.toThrow(/expired/);
    await keys.revoke(record.id, Date.now());
    await directory.reload();
    await expect(directory.authenticate(key)).rejects.toThrow(/revoked/);
    directory.stop();
  });

  it('accepts the master key as a key with access to every model', async () => {
    const directory = new KeyDirectory(keys, 'my-master-secret');
    await directory.start();
    expect(await directory.authenticate('my-master-secret')).toMatchObject({ isMaster: true, models: null });
    await expect(directory.authenticate('my-master-secreT')).rejects.toMatchObject({ kind: 'authentication' });
    directory.stop();
  });
});
