/**
 * How one process tells the others at once that it changed something they hold in memory: a
 * topic name sent over PostgreSQL `NOTIFY` or Redis pub/sub. A notice only says "look now": the
 * bus then reads `store_revisions`, so a lost or duplicated notice costs at most a late or an
 * extra reload, never a wrong one.
 */
import type { InvalidationTopic } from './invalidation-bus.js';

export interface ChangeNotifier {
  /** Which transport, for logs (`postgres`, `redis`). */
  readonly name: string;
  /** Whether notices are being received now; while not, the bus polls fast. */
  readonly listening: boolean;
  /** Sends a notice to every process, this one included; never rejects (a lost notice is caught by the poll). */
  send(topic: InvalidationTopic): Promise<void>;
  /** Starts listening; `onNotice` runs for every notice received. Resolves once listening or after the first failure (it retries). */
  start(onNotice: () => void): Promise<void>;
  close(): Promise<void>;
}

/** Name of the PostgreSQL channel and the Redis channel (after the key prefix). */
export const NOTICE_CHANNEL = 'gengate_invalidation';

/** Waits between reconnects of a notifier that lost its connection: 0.5 s, doubling, at most 10 s. */
export function reconnectDelayMs(failures: number): number {
  return Math.min(10_000, 500 * 2 ** Math.min(failures, 5));
}
