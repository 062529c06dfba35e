/**
 * Deletes what outlived its retention (`retention.*`): usage records (the daily rollups stay),
 * finished or deleted tasks, delivered or dead client-webhook deliveries, audit entries. Small
 * batches by primary key with a pause between them, so writers never wait long behind a delete
 * and a first sweep over years of rows does not hold a lock for minutes.
 */
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from './schema.js';

export interface RetentionDays {
  usageRecordsDays: number;
  tasksDays: number;
  webhookDeliveriesDays: number;
  auditDays: number;
}

interface SweeperOptions {
  /** Rows one statement deletes (default 1,000). */
  batch?: number;
  /** Pause between two batches (default 50 ms). */
  pauseMs?: number;
  /** Time between sweeps (default 10 min). */
  everyMs?: number;
  logger?: Logger;
}

const DAY_MS = 86_400_000;
const TERMINAL = ['succeeded', 'failed', 'canceled', 'cancelled', 'expired'];

type Swept = Record<keyof RetentionDays, number>;

export class RetentionSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;
  private readonly batch: number;
  private readonly pauseMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly days: RetentionDays,
    private readonly options: SweeperOptions = {},
  ) {
    this.batch = options.batch ?? 1_000;
    this.pauseMs = options.pauseMs ?? 50;
  }

  /** Whether any retention is set (nothing to sweep otherwise). */
  get active(): boolean {
    return Object.values(this.days).some((days) => days > 0);
  }

  start(): void {
    if (!this.active || this.timer) return;
    const everyMs = this.options.everyMs ?? 600_000;
    const run = () => {
      this.running ??= this.sweep(Date.now())
        .catch((error: unknown) => this.options.logger?.warn({ err: error }, 'retention sweep failed; retrying at the next one'))
        .finally(() => {
          this.running = undefined;
        });
    };
    this.timer = setInterval(run, everyMs);
    this.timer.unref();
    // The first sweep waits a minute: a start is busy enough.
    setTimeout(run, Math.min(60_000, everyMs)).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep of every table with a retention; resolves how many rows went from each. */
  async sweep(now: number): Promise<Swept> {
    const { usageRecordsDays, tasksDays, webhookDeliveriesDays, auditDays } = this.days;
    const swept: Swept = { usageRecordsDays: 0, tasksDays: 0, webhookDeliveriesDays: 0, auditDays: 0 };
    if (usageRecordsDays > 0) {
      const before = now - usageRecordsDays * DAY_MS;
      swept.usageRecordsDays = await this.inBatches((limit) =>
        sql`delete from usage_records where id in (select id from usage_records where created_at < ${before} order by id limit ${limit})`.execute(this.db),
      );
    }
    if (tasksDays > 0) {
      const before = now - tasksDays * DAY_MS;
      swept.tasksDays = await this.inBatches(async (limit) => {
        const ids = await this.db
          .selectFrom('tasks')
          .select('id')
          .where((eb) => eb.or([eb.and([eb('status', 'in', TERMINAL), eb('finished_at', '<', before)]), eb('deleted_at', '<', before)]))
          .limit(limit)
          .execute();
        if (ids.length === 0) return { numAffectedRows: 0n };
        const list = ids.map((row) => row.id);
        // A task's deliveries go with it (a pending one of a task this old is long dead).
        await this.db.deleteFrom('webhook_deliveries').where('task_id', 'in', list).execute();
        const result = await this.db.deleteFrom('tasks').where('id', 'in', list).executeTakeFirst();
        return { numAffectedRows: result.numDeletedRows };
      });
    }
    if (webhookDeliveriesDays > 0) {
      const before = now - webhookDeliveriesDays * DAY_MS;
      swept.webhookDeliveriesDays = await this.inBatches(async (limit) => {
        const ids = await this.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', 'in', ['delivered', 'dead'])
          .where('created_at', '<', before)
          .limit(limit)
          .execute();
        if (ids.length === 0) return { numAffectedRows: 0n };
        const result = await this.db
          .deleteFrom('webhook_deliveries')
          .where(
            'id',
            'in',
            ids.map((row) => row.id),
          )
          .executeTakeFirst();
        return { numAffectedRows: result.numDeletedRows };
      });
    }
    if (auditDays > 0) {
      const before = now - auditDays * DAY_MS;
      swept.auditDays = await this.inBatches((limit) =>
        sql`delete from audit_log where id in (select id from audit_log where at < ${before} order by id limit ${limit})`.execute(this.db),
      );
    }
    const total = Object.values(swept).reduce((sum, n) => sum + n, 0);
    if (total > 0) this.options.logger?.info({ swept }, 'retention sweep deleted old rows');
    return swept;
  }

  private async inBatches(deleteSome: (limit: number) => Promise<{ numAffectedRows?: bigint }>): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = Number((await deleteSome(this.batch)).numAffectedRows ?? 0n);
      total += deleted;
      if (deleted < this.batch || this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    }
    return total;
  }
}
