/**
 * An invalidation bus across every process on one database: a publish reaches this process's
 * listeners at once, and a poll of `store_revisions` (every 250 ms; one tiny query, never two at
 * a time) tells this process when another one changed a topic. Writers bump the counters in the
 * same transaction as their change (`store-revisions.ts`), so no change goes unnoticed; a topic
 * this process published itself is usually published once more by the next poll, which costs
 * one redundant reload.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type InvalidationBus, type InvalidationTopic, LocalInvalidationBus } from './invalidation-bus.js';
import type { Database } from './schema.js';
import { readRevisions } from './store-revisions.js';

const TOPICS: readonly InvalidationTopic[] = ['channels', 'catalog', 'keys', 'limits'];
/** A failing poll is logged at most this often. */
const LOG_EVERY_MS = 60_000;

interface StoreInvalidationBusOptions {
  pollMs?: number;
  logger?: Logger;
}

export class StoreInvalidationBus implements InvalidationBus {
  private readonly local = new LocalInvalidationBus();
  private known = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private stopped = false;
  private lastLoggedAt = 0;
  private readonly pollMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: StoreInvalidationBusOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 250;
  }

  /** Reads the counters as they are now (changes before this are already in what was loaded), then polls. */
  async start(): Promise<void> {
    this.known = await readRevisions(this.db);
    this.schedule();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
  }

  publish(topic: InvalidationTopic): void {
    this.local.publish(topic);
  }

  subscribe(topic: InvalidationTopic, listener: () => void): () => void {
    return this.local.subscribe(topic, listener);
  }

  /** One poll now (tests, and the timer). */
  poll(): Promise<void> {
    this.polling ??= this.readAndPublish().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.poll().finally(() => this.schedule());
    }, this.pollMs);
    this.timer.unref();
  }

  private async readAndPublish(): Promise<void> {
    let current: Map<string, number>;
    try {
      current = await readRevisions(this.db);
    } catch (error) {
      const now = Date.now();
      if (now - this.lastLoggedAt >= LOG_EVERY_MS) {
        this.lastLoggedAt = now;
        this.options.logger?.warn({ err: error }, 'polling store_revisions failed; changes by other processes arrive late');
      }
      return;
    }
    const changed = TOPICS.filter((topic) => current.get(topic) !== this.known.get(topic));
    this.known = current;
    for (const topic of changed) {
      if (this.stopped) return;
      try {
        this.local.publish(topic);
      } catch (error) {
        this.options.logger?.error({ err: error, topic }, 'an invalidation listener failed');
      }
    }
  }
}
