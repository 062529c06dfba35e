/** Which transport carries change notices between replicas: Redis when configured, else PostgreSQL's NOTIFY, else none (one SQLite file: the poll). */
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
  if (config.redisUrl) return new RedisChangeNotifier(config.redisUrl, { logger, keyPrefix: config.admission?.redisKeyPrefix });
  if (store.dialect === 'postgres') return new PostgresChangeNotifier(store.db, config.databaseUrl, logger);
  return undefined;
}
