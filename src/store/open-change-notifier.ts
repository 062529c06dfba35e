/**
 * Which transport carries change notices between replicas: PostgreSQL's NOTIFY on a PostgreSQL
 * store (sent inside every write's transaction), Redis pub/sub for processes sharing a SQLite
 * file and a Redis, else none (the poll).
 */
import type { Logger } from 'pino';
import type { ChangeNotifier } from './change-notifier.js';
import type { OpenedStore } from './open-store.js';
import { PostgresChangeNotifier } from './postgres-change-notifier.js';
import { RedisChangeNotifier } from './redis-change-notifier.js';

export function changeNotifier(
  config: { redisUrl?: string; databaseUrl: string; admission?: { redisKeyPrefix: string } },
  store: OpenedStore,
  logger?: Logger,
): ChangeNotifier | undefined {
  // On PostgreSQL the notice is part of the write's own transaction (`bumpRevision`): nothing changes unheard.
  if (store.dialect === 'postgres') return new PostgresChangeNotifier(store.db, config.databaseUrl, logger);
  if (config.redisUrl) return new RedisChangeNotifier(config.redisUrl, { logger, keyPrefix: config.admission?.redisKeyPrefix });
  return undefined;
}
