/**
 * A throwaway PostgreSQL database for one test file: created on the local server, dropped
 * afterwards. The server is the one `.ci/run` starts (trust auth on 127.0.0.1:5432).
 */
import pg from 'pg';
import { randomId } from '../../src/core/ids.js';

export const POSTGRES_ADMIN_URL = process.env.GENGATE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TempDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTempDatabase(): Promise<TempDatabase> {
  const name = `gengate_test_${randomId(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
