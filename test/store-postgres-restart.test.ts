/**
 * PostgreSQL ends an idle pooled connection (a server restart, a terminated backend): the
 * gateway's store keeps working on a new connection instead of dying of an unhandled 'error'.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../src/store/open-store.js';
import { createTempDatabase, POSTGRES_ADMIN_URL, type TempDatabase } from './helpers/postgres.js';

describe('PostgreSQL store when the server ends its idle connections', () => {
  let database: TempDatabase;
  let store: OpenedStore;
  beforeAll(async () => {
    database = await createTempDatabase();
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('answers the next query on a new connection', async () => {
    const name = new URL(database.url).pathname.slice(1);
    expect(await store.db.selectFrom('accounts').select('id').execute()).toEqual([]);
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    const ended = await admin.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await admin.end();
    expect(ended.rows.length).toBeGreaterThan(0);
    // The pool's idle client hears its end; without a handler on the pool that 'error' ends the process.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await store.db.selectFrom('accounts').select('id').execute()).toEqual([]);
  });
});
