/**
 * An invalidation bus across every process on one database: a publish reaches this process's
 * listeners at once and, with a `ChangeNotifier` (PostgreSQL NOTIFY or Redis pub/sub), every
 * other process's within milliseconds; a poll of `store_revisions` (one tiny query, never two at
 * a time: every 250 ms without a listening notifier, every few seconds as a safety net with one)
 * tells this process what changed. Writers bump the counters in the
 * same transaction as their change (`store-revisions.ts`), so no change goes unnoticed; a topic
 * this process published itself is usually published once more by the next poll, which costs
 * one redundant reload.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type InvalidationBus, type InvalidationTopic, LocalInvalidationBus } from './invalidation-bus.js';
import type { ChangeNotifier } from './change-notifier.js';
import type { Database } from './schema.js';
import { readRevisions } from './store-revisions.js';

const TOPICS: readonly InvalidationTopic[] = ['channels', 'catalog', 'keys', 'limits'];
/** A failing poll is logged at most this often. */
const LOG_EVERY_MS = 60_000;

interface StoreInvalidationBusOptions {
  /** The poll without a listening notifier (default 250 ms). */
  pollMs?: number;
  /** The safety-net poll while the notifier listens (default 5 s). */
  safetyPollMs?: number;
  notifier?: ChangeNotifier;
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
  private readonly safetyPollMs: number;
  /** A notice came while a poll was reading: read once more after it (the change may have committed after the read). */
  private pollAgain = false;
  private lastPollAt = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: StoreInvalidationBusOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 250;
    this.safetyPollMs = options.safetyPollMs ?? 5_000;
  }

  /** The transport of change notices, if any (for the start banner and logs). */
  get notifier(): ChangeNotifier | undefined {
    return this.options.notifier;
  }

  /** Reads the counters as they are now (changes before this are already in what was loaded), then polls. */
  async start(): Promise<void> {
    this.known = await readRevisions(this.db);
    await this.options.notifier?.start(() => void this.poll());
    this.schedule();
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.options.notifier?.close();
    await this.polling;
  }

  publish(topic: InvalidationTopic): void {
    this.local.publish(topic);
    void this.options.notifier?.send(topic);
  }

  subscribe(topic: InvalidationTopic, listener: () => void): () => void {
    return this.local.subscribe(topic, listener);
  }

  /** One poll now (tests, and the timer). */
  poll(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return this.polling;
    }
    this.polling = (async () => {
      do {
        this.pollAgain = false;
        this.lastPollAt = Date.now();
        await this.readAndPublish();
      } while (this.pollAgain && !this.stopped);
    })().finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  /** Ticks every `pollMs`; while the notifier listens, a tick polls only once `safetyPollMs` passed since the last poll. */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      if (this.options.notifier?.listening && Date.now() - this.lastPollAt < this.safetyPollMs) return this.schedule();
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
