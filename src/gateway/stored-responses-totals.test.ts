/**
 * The per-owner totals of stored responses stay equal to what the owner really keeps through
 * every write and delete (save, rewrite, delete by owner, delete by admin, the expiry sweep), on
 * both databases; the migration fills them from responses stored before it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDatabase } from '../../test/helpers/postgres.js';
import type { StoredResponse } from '../core/responses.js';
import { storedResponseTotalsMigration } from '../store/migrations/025-stored-response-totals.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { StoredResponsesRepository } from '../store/stored-responses-repository.js';

const NOW = 1_800_000_000_000;

function response(id: string, text: string, expiresAt = NOW / 1000 + 3600): StoredResponse {
  return {
    id,
    accountId: 'ignored',
    model: 'm',
    createdAt: NOW / 1000,
    status: 'completed',
    inputItems: [{ type: 'message', id: `in_${id}`, role: 'user', content: [{ type: 'input_text', text }] }],
    outputItems: [],
    object: { id },
    expiresAt,
  };
}

const backends: Array<[string, () => Promise<{ url: string; cleanup: () => Promise<void> }>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-totals-'));
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

describe.each(backends)('stored response totals on %s', (_name, makeBackend) => {
  let store: OpenedStore;
  let cleanup: () => Promise<void>;
  let repository: StoredResponsesRepository;
  const alice = { owner: 'acct-alice', accountId: 'acct-alice', keyId: 'k1' };
  const bob = { owner: 'acct-bob', accountId: 'acct-bob', keyId: 'k2' };

  /** What the owner really keeps, summed from the rows. */
  async function actual(owner: string): Promise<{ bytes: number; responses: number }> {
    const row = await store.db
      .selectFrom('stored_responses')
      .select((eb) => [eb.fn.sum<number | string>('bytes').as('bytes'), eb.fn.countAll<number | string>().as('responses')])
      .where('owner', '=', owner)
      .executeTakeFirstOrThrow();
    return { bytes: Number(row.bytes ?? 0), responses: Number(row.responses) };
  }

  beforeAll(async () => {
    const backend = await makeBackend();
    cleanup = backend.cleanup;
    store = await openStore(backend.url);
    repository = new StoredResponsesRepository(store.db);
  });

  afterAll(async () => {
    await store?.close();
    await cleanup?.();
  });

  it('follows saves, rewrites and deletes', async () => {
    expect(await repository.totals(alice.owner)).toEqual({ bytes: 0, responses: 0 });
    const grown = await repository.save(alice, response('r1', 'x'.repeat(1000)));
    await repository.save(alice, response('r2', 'short'));
    expect(grown).toBeGreaterThan(1000);
    expect(await repository.totals(alice.owner)).toEqual(await actual(alice.owner));
    expect((await repository.totals(alice.owner)).responses).toBe(2);

    // A rewrite replaces the old size rather than adding to it.
    expect(await repository.save(alice, response('r1', 'now short'))).toBeLessThan(0);
    expect(await repository.totals(alice.owner)).toEqual(await actual(alice.owner));

    // Another owner writing the same id changes nobody's totals.
    expect(await repository.save(bob, response('r1', 'y'.repeat(5000)))).toBe(0);
    expect(await repository.totals(bob.owner)).toEqual({ bytes: 0, responses: 0 });

    expect(await repository.remove(alice.owner, 'r2', NOW)).toBe(true);
    expect(await repository.totals(alice.owner)).toEqual(await actual(alice.owner));
    expect(await repository.removeAny('r1', NOW)).toBe(true);
    expect(await repository.totals(alice.owner)).toEqual({ bytes: 0, responses: 0 });
  });

  it('follows the expiry sweep, owner by owner', async () => {
    await repository.save(alice, response('e1', 'a'.repeat(300), NOW / 1000 - 1));
    await repository.save(alice, response('e2', 'kept'));
    await repository.save(bob, response('e3', 'b'.repeat(700), NOW / 1000 - 1));
    expect(await repository.deleteExpired(NOW, 100)).toBe(2);
    expect(await repository.totals(alice.owner)).toEqual(await actual(alice.owner));
    expect(await repository.totals(alice.owner)).toMatchObject({ responses: 1 });
    expect(await repository.totals(bob.owner)).toEqual({ bytes: 0, responses: 0 });
  });

  it('the migration fills the totals from the responses already stored', async () => {
    await repository.save(bob, response('m1', 'c'.repeat(400)));
    const before = await actual(bob.owner);
    await storedResponseTotalsMigration.down(store.db as never);
    await storedResponseTotalsMigration.up(store.db as never);
    expect(await repository.totals(bob.owner)).toEqual(before);
    expect(await repository.totals(alice.owner)).toEqual(await actual(alice.owner));
  });
});
