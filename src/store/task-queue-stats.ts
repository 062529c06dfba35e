/**
 * What the metrics show of the task engine's queues, read in one round of small queries at
 * scrape time: unfinished tasks by status and family, how overdue the most overdue poll is, and
 * the webhook outbox's pending deliveries. Every process of a shared database reads the same
 * figures (the queues are shared; each process's own series say which process answered).
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

const UNFINISHED = ['queued', 'submitted', 'running'];

export interface TaskQueueStats {
  depth: Array<{ status: string; family: string; count: number }>;
  /** `next_poll_at` of the most overdue unfinished task; absent when none is due. */
  oldestDueAt?: number;
  webhookPending: number;
}

export async function readTaskQueueStats(db: Kysely<Database>, now: number): Promise<TaskQueueStats> {
  const [depth, due, pending] = await Promise.all([
    db
      .selectFrom('tasks')
      .select(['status', 'surface', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', UNFINISHED)
      .groupBy(['status', 'surface'])
      .execute(),
    db
      .selectFrom('tasks')
      .select((eb) => eb.fn.min<number | string | null>('next_poll_at').as('oldest'))
      .where('status', 'in', ['submitted', 'running'])
      .where('next_poll_at', '<=', now)
      .executeTakeFirst(),
    db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
  ]);
  const oldest = due?.oldest;
  return {
    depth: depth.map((row) => ({ status: row.status, family: row.surface, count: Number(row.count) })),
    oldestDueAt: oldest === null || oldest === undefined ? undefined : Number(oldest),
    webhookPending: Number(pending.count),
  };
}
