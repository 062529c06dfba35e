import SqliteDatabase from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withCachedStatements } from './cached-statements.js';

interface Db {
  items: { id: Generated<number>; name: string };
}

const opened: Array<Kysely<Db>> = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy();
});

describe('withCachedStatements', () => {
  it('prepares each SQL text once and answers queries through Kysely as before', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepared++;
      return prepare(text);
    }) as typeof sqlite.prepare;
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withCachedStatements(sqlite) }) });
    opened.push(db);
    await sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(db);
    for (const name of ['a', 'b', 'c']) await db.insertInto('items').values({ name }).execute();
    for (let i = 0; i < 3; i++) {
      const rows = await db.selectFrom('items').select('name').where('id', '>', 1).orderBy('id').execute();
      expect(rows.map((row) => row.name)).toEqual(['b', 'c']);
    }
    // CREATE, one INSERT shape, one SELECT shape.
    expect(prepared).toBe(3);
  });

  it('keeps at most the limit of statements, starting over when full', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const database = withCachedStatements(sqlite, 2);
    const first = database.prepare('SELECT 1');
    expect(database.prepare('SELECT 1')).toBe(first);
    database.prepare('SELECT 2');
    database.prepare('SELECT 3');
    expect(database.prepare('SELECT 1')).not.toBe(first);
    sqlite.close();
  });
});
