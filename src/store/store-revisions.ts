/**
 * The `store_revisions` counters: a write that changes keys, channels or the catalog bumps its
 * topic's counter in the same transaction, so a process that sees a new counter knows to reload.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { NOTICE_CHANNEL } from './change-notifier.js';
import type { InvalidationTopic } from './invalidation-bus.js';
import type { Database } from './schema.js';

/**
 * Adds one to the topic's counter (creating it at 1) and returns the new value; call it inside
 * the transaction of the write. The counter's row stays locked until that transaction ends, so
 * revisions are handed out in commit order: a reader that sees revision N sees every change up to N.
 */
export async function bumpRevision(db: Kysely<Database>, topic: InvalidationTopic): Promise<number> {
  const row = await db
    .insertInto('store_revisions')
    .values({ topic, revision: 1 })
    .onConflict((oc) => oc.column('topic').doUpdateSet({ revision: sql<number>`store_revisions.revision + 1` }))
    .returning('revision')
    .executeTakeFirstOrThrow();
  // PostgreSQL delivers a NOTIFY when the transaction commits: every replica listening hears of the change then, whoever made it (a CLI too).
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_notify(${NOTICE_CHANNEL}, ${topic})`.execute(db);
  return Number(row.revision);
}

/** One topic's counter (0 before its first change). */
export async function readRevision(db: Kysely<Database>, topic: InvalidationTopic): Promise<number> {
  const row = await db.selectFrom('store_revisions').select('revision').where('topic', '=', topic).executeTakeFirst();
  return row ? Number(row.revision) : 0;
}

/** Every topic's counter; the table has one row per topic, so this is one tiny query. */
export async function readRevisions(db: Kysely<Database>): Promise<Map<string, number>> {
  const rows = await db.selectFrom('store_revisions').select(['topic', 'revision']).execute();
  return new Map(rows.map((row) => [row.topic, Number(row.revision)]));
}
