/**
 * Change notices over PostgreSQL `LISTEN/NOTIFY`, for replicas that share a database and no
 * Redis: one dedicated connection listens (the pool's connections come and go), sends go out
 * through the pool with `pg_notify`. A dropped listener reconnects with a backoff; meanwhile
 * the bus falls back to its fast poll.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { type ChangeNotifier, NOTICE_CHANNEL, reconnectDelayMs } from './change-notifier.js';
import type { InvalidationTopic } from './invalidation-bus.js';
import type { Database } from './schema.js';

type PgClient = import('pg').Client;

export class PostgresChangeNotifier implements ChangeNotifier {
  readonly name = 'postgres';
  private client?: PgClient;
  private onNotice: () => void = () => {};
  private failures = 0;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private connected = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly url: string,
    private readonly logger?: Logger,
  ) {}

  get listening(): boolean {
    return this.connected;
  }

  async send(topic: InvalidationTopic): Promise<void> {
    await sql`select pg_notify(${NOTICE_CHANNEL}, ${topic})`.execute(this.db).catch((error: unknown) => {
      this.logger?.debug({ err: error, topic }, 'pg_notify failed; other replicas see the change at their next poll');
    });
  }

  async start(onNotice: () => void): Promise<void> {
    this.onNotice = onNotice;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000, keepAlive: true });
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.connected = false;
      client.end().catch(() => undefined);
      if (error) this.logger?.warn({ err: error }, 'the LISTEN connection for change notices dropped; polling until it is back');
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === NOTICE_CHANNEL) this.onNotice();
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTICE_CHANNEL}`);
      this.connected = true;
      this.failures = 0;
      // Whatever changed while not listening is read now.
      this.onNotice();
    } catch (error) {
      lost(error);
    }
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(), reconnectDelayMs(this.failures++));
    this.retry.unref();
  }
}
