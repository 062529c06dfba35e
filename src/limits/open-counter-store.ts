/**
 * Opens the counter store the gateway uses: Redis when a URL is given (shared by replicas), else
 * in memory; either way behind the guard (deadlines, failure policy, queued ends).
 */
import type { Logger } from 'pino';
import type { CounterStore, FailurePolicy } from './contract.js';
import { GuardedCounterStore } from './guarded-counter-store.js';
import { MemoryCounterStore } from './memory-counter-store.js';
import { RedisCounterStore } from './redis-counter-store.js';

export interface OpenCounterStoreOptions {
  redisUrl?: string;
  /** Redis key prefix (default `gengate:`). */
  keyPrefix?: string;
  /** Each call's deadline in ms (default 250). */
  timeoutMs?: number;
  failure: FailurePolicy;
  logger?: Logger;
  /** Without a Redis URL, these counters instead of a new in-memory store (a cluster worker's, kept by its primary). */
  inner?: CounterStore;
}

export function openCounterStore(options: OpenCounterStoreOptions): CounterStore {
  const timeoutMs = options.timeoutMs ?? 250;
  let lastLogged = 0;
  const inner = options.redisUrl
    ? RedisCounterStore.connect(options.redisUrl, {
        keyPrefix: options.keyPrefix,
        timeoutMs,
        onError: (error) => {
          // A dead Redis reports every reconnect attempt; one line per 10 s is enough.
          const now = Date.now();
          if (now - lastLogged < 10_000) return;
          lastLogged = now;
          options.logger?.warn({ err: error.message }, 'limits: Redis connection error');
        },
      })
    : (options.inner ?? new MemoryCounterStore());
  return new GuardedCounterStore(inner, { failure: options.failure, timeoutMs, logger: options.logger });
}
