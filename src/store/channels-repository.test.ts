import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import { channelDefaults } from '../config/defaults.js';
import type { ChannelDefinition } from '../config/types.js';
import { ChannelsRepository } from './channels-repository.js';
import { CredentialCipher, CredentialKeyError, keyIdOf, loadSecretKey } from './credential-cipher.js';
import { loadStoredChannels } from './load-stored-channels.js';
import { openStore, type OpenedStore } from './open-store.js';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';

const API_KEY = 'sk-upstream-0123456789abcdef';
const HEADER_TOKEN = 'org-token-fedcba9876543210';

const claude: ChannelDefinition = {
  ...channelDefaults(),
  name: 'claude',
  provider: 'anthropic',
  baseUrl: 'https://api.anthropic.com',
  apiKey: API_KEY,
  headers: { 'x-org-token': HEADER_TOKEN },
  models: ['textmodel-a-*', 'claude-*'],
  modelMap: { 'house-model': 'claude-sonnet-4-20250514' },
  modelRewrite: [{ from: 'textmodel-a-', to: 'claude-' }],
  priority: 5,
  weight: 2,
  enabled: false,
  timeoutMs: 30_000,
  options: { anthropicVersion: '2023-06-01', nested: { list: [1, 2] } },
};
const local: ChannelDefinition = {
  ...channelDefaults(),
  name: 'local',
  provider: 'openai-compatible',
  baseUrl: 'http://127.0.0.1:11434/v1',
  models: ['llama3'],
};

const key = Buffer.alloc(32, 3);

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-channels-'));
      return { url: `sqlite:${join(dir, 'gengate.db')}`, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'postgres',
    async () => {
      const temp = await createTempDatabase();
      return { url: temp.url, cleanup: () => temp.drop() };
    },
  ],
];

describe.each(backends)('channels on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let channels: ChannelsRepository;

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    channels = new ChannelsRepository(store.db, new CredentialCipher(key));
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('stores definitions whole and lists them by name', async () => {
    await channels.insert(local, 1_700_000_000_000);
    await channels.insert(claude, 1_700_000_000_001);
    expect(await channels.get('claude')).toEqual(claude);
    expect(await channels.get('nope')).toBeUndefined();
    expect(await channels.list()).toEqual([claude, local]);
    await expect(channels.insert({ ...local, apiKey: 'other' })).rejects.toThrow();
  });

  it('never keeps the credentials in plaintext, and records the key id', async () => {
    const rows = await store.db.selectFrom('channels').selectAll().execute();
    const row = rows.find((r) => r.name === 'claude')!;
    const raw = JSON.stringify(rows);
    expect(raw).not.toContain(API_KEY);
    expect(raw).not.toContain(HEADER_TOKEN);
    expect(raw).not.toContain(Buffer.from(API_KEY).toString('base64'));
    expect(row.key_id).toBe(keyIdOf(key));
    expect(row.credentials.startsWith(`v1.${keyIdOf(key)}.`)).toBe(true);
    expect(JSON.parse(row.definition)).toMatchObject({ models: claude.models, priority: 5, enabled: false });
    expect(typeof row.created_at).toBe('number');
  });

  it('keeps the options sealed with the credentials, and still reads options an earlier version kept in the clear', async () => {
    const rows = await store.db.selectFrom('channels').selectAll().execute();
    const row = rows.find((r) => r.name === 'claude')!;
    expect(JSON.parse(row.definition)).not.toHaveProperty('options');
    expect(JSON.stringify(rows)).not.toContain('2023-06-01');
    // A row as written before options were sealed: the options in the plain part, none in the envelope.
    const { options, ...plain } = JSON.parse(row.definition) as Record<string, unknown>;
    expect(options).toBeUndefined();
    const cipher = new CredentialCipher(key);
    await store.db
      .insertInto('channels')
      .values({
        name: 'older',
        provider: 'anthropic',
        definition: JSON.stringify({ ...plain, options: { anthropicVersion: '2023-01-01' } }),
        credentials: cipher.encrypt(JSON.stringify({ apiKey: API_KEY, headers: {} }), 'gengate channel:older'),
        key_id: cipher.keyId,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    expect((await channels.get('older'))?.options).toEqual({ anthropicVersion: '2023-01-01' });
    expect(await channels.delete('older')).toBe(true);
  });

  it('updates, renames and deletes', async () => {
    expect(await channels.update('claude', { ...claude, apiKey: 'sk-rotated', weight: 7 })).toBe(true);
    expect(await channels.get('claude')).toEqual({ ...claude, apiKey: 'sk-rotated', weight: 7 });
    expect(await channels.update('local', { ...local, name: 'local-2' })).toBe(true);
    expect(await channels.get('local')).toBeUndefined();
    expect((await channels.get('local-2'))?.baseUrl).toBe(local.baseUrl);
    expect(await channels.update('absent', local)).toBe(false);
    expect(await channels.delete('local-2')).toBe(true);
    expect(await channels.delete('local-2')).toBe(false);
    expect((await channels.list()).map((c) => c.name)).toEqual(['claude']);
  });

  it('fails loudly, naming the channel, when the secret key is not the one the credentials were stored with', async () => {
    const wrong = new ChannelsRepository(store.db, new CredentialCipher(Buffer.alloc(32, 4)));
    await expect(wrong.list()).rejects.toThrow(CredentialKeyError);
    await expect(wrong.get('claude')).rejects.toThrow(/channel "claude" cannot be decrypted: it was encrypted under secret key/);
  });

  it('reorders several channels in one transaction: all or none', async () => {
    await channels.insert({ ...local, name: 'order-a' });
    await channels.insert({ ...local, name: 'order-b' });
    expect(
      await channels.reorder([
        { name: 'order-a', priority: 3, weight: 4 },
        { name: 'order-b', priority: 7, weight: 0 },
      ]),
    ).toEqual({});
    expect(await channels.get('order-a')).toMatchObject({ priority: 3, weight: 4, apiKey: local.apiKey });
    expect(await channels.get('order-b')).toMatchObject({ priority: 7, weight: 0 });
    expect(
      await channels.reorder([
        { name: 'order-a', priority: 99, weight: 1 },
        { name: 'absent', priority: 1, weight: 1 },
      ]),
    ).toEqual({ missing: 'absent' });
    expect(await channels.get('order-a')).toMatchObject({ priority: 3, weight: 4 });
    expect(await channels.names()).toEqual(expect.arrayContaining(['order-a', 'order-b']));
    await channels.delete('order-a');
    await channels.delete('order-b');
  });

  it('re-encrypts every channel sealed under a previous key, and only those', async () => {
    const next = Buffer.alloc(32, 8);
    const rotated = new ChannelsRepository(store.db, new CredentialCipher(next, [key]));
    const before = await channels.list();
    expect(await rotated.reencryptAll()).toEqual({ total: before.length, reencrypted: before.length, keyId: keyIdOf(next) });
    expect(await rotated.reencryptAll()).toMatchObject({ reencrypted: 0 });
    expect(await new ChannelsRepository(store.db, new CredentialCipher(next)).list()).toEqual(before);
    await expect(channels.list()).rejects.toThrow(CredentialKeyError);
    await expect(new ChannelsRepository(store.db, new CredentialCipher(Buffer.alloc(32, 9))).reencryptAll()).rejects.toThrow(/cannot be decrypted/);
    // Back under the original key for the tests below.
    await new ChannelsRepository(store.db, new CredentialCipher(key, [next])).reencryptAll();
    expect(await channels.list()).toEqual(before);
  });

  it("refuses credentials moved from another channel's row", async () => {
    await channels.insert({ ...local, name: 'victim', apiKey: 'victim-key' });
    const { credentials } = await store.db.selectFrom('channels').select('credentials').where('name', '=', 'claude').executeTakeFirstOrThrow();
    await store.db.updateTable('channels').set({ credentials }).where('name', '=', 'victim').execute();
    await expect(channels.get('victim')).rejects.toThrow(/channel "victim" cannot be decrypted: .*altered or belongs to another record/);
    await channels.delete('victim');
  });

  it('loadStoredChannels hands back checked definitions and names a stored channel whose provider is unknown', async () => {
    expect(await loadStoredChannels(channels, PROVIDER_DESCRIPTORS)).toEqual([{ ...claude, apiKey: 'sk-rotated', weight: 7 }]);
    await channels.insert({ ...local, name: 'ghost', provider: 'retired-provider' });
    await expect(loadStoredChannels(channels, PROVIDER_DESCRIPTORS)).rejects.toThrow(/stored channel "ghost"\.provider must be one of/);
    await channels.delete('ghost');
  });
});

describe('ChannelsRepository key loading', () => {
  it('loads (or generates) the secret key only when a credential is first encrypted or decrypted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-channels-key-'));
    const store = await openStore('sqlite::memory:');
    try {
      let loads = 0;
      const repository = new ChannelsRepository(store.db, () => {
        loads++;
        return new CredentialCipher(loadSecretKey({ dataDir }));
      });
      expect(await repository.list()).toEqual([]);
      expect(loads).toBe(0);
      await repository.insert(local);
      await repository.insert({ ...local, name: 'second' });
      expect(loads).toBe(1);
      const reopened = new ChannelsRepository(store.db, new CredentialCipher(loadSecretKey({ dataDir })));
      expect((await reopened.get('local'))?.models).toEqual(['llama3']);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
