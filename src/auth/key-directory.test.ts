import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountsRepository } from '../store/accounts-repository.js';
import { ApiKeysRepository } from '../store/api-keys-repository.js';
import { LocalInvalidationBus } from '../store/invalidation-bus.js';
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

  it('reloads on a keys invalidation, so a revocation by another process takes effect without waiting for the periodic reload', async () => {
    const { key, record } = await createApiKey(keys, { name: 'a' });
    const bus = new LocalInvalidationBus();
    const directory = new KeyDirectory(keys, undefined, { bus, refreshMs: 3_600_000 });
    await directory.start();
    await expect(directory.authenticate(key)).resolves.toMatchObject({ id: record.id });
    await keys.revoke(record.id, Date.now());
    await expect(directory.authenticate(key)).resolves.toMatchObject({ id: record.id });
    bus.publish('keys');
    await vi.waitFor(() => expect(directory.authenticate(key)).rejects.toThrow(/revoked/), { timeout: 1_000, interval: 5 });
    directory.stop();
  });

  it('refuses the keys of a disabled account, and accepts them again once it is enabled', async () => {
    const accounts = new AccountsRepository(store.db);
    const now = Date.now();
    await accounts.insert({
      id: 'acc-1',
      email: 'a@example.com',
      role: 'member',
      passwordHash: null,
      models: null,
      createdAt: now,
      updatedAt: now,
      disabledAt: null,
    });
    const { key } = await createApiKey(keys, { name: 'a', accountId: 'acc-1' });
    const directory = new KeyDirectory(keys, undefined);
    await directory.start();
    await expect(directory.authenticate(key)).resolves.toMatchObject({ accountId: 'acc-1' });
    await accounts.update('acc-1', { disabledAt: now });
    await directory.reload();
    await expect(directory.authenticate(key)).rejects.toMatchObject({ kind: 'authentication', message: expect.stringMatching(/disabled/) });
    await accounts.update('acc-1', { disabledAt: null });
    await directory.reload();
    await expect(directory.authenticate(key)).resolves.toMatchObject({ accountId: 'acc-1' });
    directory.stop();
  });

  it('coalesces overlapping reloads into one more read after the one under way', async () => {
    let reads = 0;
    const counting = Object.assign(Object.create(keys) as ApiKeysRepository, {
      list: async () => {
        reads++;
        return keys.list();
      },
    });
    const directory = new KeyDirectory(counting, undefined);
    await Promise.all([directory.reload(), directory.reload(), directory.reload(), directory.reload()]);
    expect(reads).toBe(2);
  });

  it('reads only the keys changed since its revision on a keys invalidation, and tells its listeners', async () => {
    const { key, record } = await createApiKey(keys, { name: 'a' });
    const bus = new LocalInvalidationBus();
    const directory = new KeyDirectory(keys, undefined, { bus, refreshMs: 3_600_000 });
    await directory.start();
    const fullReads = vi.spyOn(keys, 'list');
    const changedReads = vi.spyOn(keys, 'changedSince');
    let changes = 0;
    directory.onChange(() => changes++);
    const authenticated = await directory.authenticate(key);
    expect(directory.revocationOf(authenticated)).toBeUndefined();

    await createApiKey(keys, { name: 'b' });
    await keys.revoke(record.id, Date.now());
    bus.publish('keys');
    await vi.waitFor(() => expect(directory.revocationOf(authenticated)).toMatchObject({ kind: 'authentication', message: expect.stringMatching(/revoked/) }), {
      timeout: 1_000,
      interval: 5,
    });
    expect(changes).toBe(1);
    expect(fullReads).not.toHaveBeenCalled();
    expect((await changedReads.mock.results[0].value).map((k: { name: string }) => k.name).sort()).toEqual(['a', 'b']);
    // Nothing changed since: no read of keys at all.
    await directory.refresh();
    expect(changedReads).toHaveBeenCalledTimes(1);
    expect(directory.revocationOf({ id: 'master', name: 'master key', models: null, isMaster: true, accountId: null })).toBeUndefined();
    directory.stop();
  });

  it('keeps the newer state when a lookup of a new key races a revocation read', async () => {
    const directory = new KeyDirectory(keys, undefined);
    await directory.start();
    const { key, record } = await createApiKey(keys, { name: 'racy' });
    const stale = await keys.findById(record.id);
    let release!: () => void;
    vi.spyOn(keys, 'findById').mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve(stale))));
    const authenticating = directory.authenticate(key);
    await keys.revoke(record.id, Date.now());
    await directory.refresh();
    release();
    await expect(authenticating).rejects.toThrow(/revoked/);
    directory.stop();
  });
});
