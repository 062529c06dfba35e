/**
 * The counter store shared by replicas: every operation is one Lua script (`redis-scripts/`),
 * so an admit checks and takes all its holds atomically however many replicas call at once, and
 * reservation records live in Redis so any replica can settle what another admitted.
 *
 * Clock: the scripts use the caller's `now`, not Redis `TIME`, so the memory and Redis stores
 * answer alike and tests can move time. Replicas' clocks differ by their skew (milliseconds under
 * NTP); the harm is bounded by it: a GCRA counter never moves back (`max(tat, now)`), so a replica
 * behind sees a counter slightly fuller (stricter), one ahead sees it that much emptier, and
 * leases (tens of seconds) expire that much early or late. `health()` measures the skew against
 * Redis `TIME` and reports it past one second.
 *
 * Scripts build key names from the prefix inside Lua (a settle only learns its counters from the
 * reservation record), so this needs a single Redis (or a cluster-less proxy), not Redis Cluster.
 */
import { Redis, type RedisOptions } from 'ioredis';
import type { ActualAmounts, AdmitRequest, AdmitResult, CounterStore, Hold, HoldState } from './contract.js';
import { checkAdmitRequest, checkNusd, checkReservationId, checkTime, DuplicateReservation, rateKeptOnRelease } from './counter-rules.js';
import { ADMIT_SCRIPT } from './redis-scripts/admit-script.js';
import { END_SCRIPT } from './redis-scripts/end-script.js';
import { PEEK_SCRIPT } from './redis-scripts/peek-script.js';
import { RENEW_SCRIPT } from './redis-scripts/renew-script.js';
import { SET_SPEND_SCRIPT } from './redis-scripts/set-spend-script.js';

type Reply = Promise<unknown>;
interface CounterCommands {
  gengateAdmit(...args: string[]): Reply;
  gengateEnd(...args: string[]): Reply;
  gengateRenew(...args: string[]): Reply;
  gengatePeek(...args: string[]): Reply;
  gengateSetSpend(...args: string[]): Reply;
}

export interface RedisCounterStoreOptions {
  /** Prepended to every key (default `gengate:`); tests use their own to stay apart. */
  keyPrefix?: string;
  /** Whether `close()` ends the client (true when the store made it). */
  ownsClient?: boolean;
}

const MAX_RENEW_IDS = 1_000;
const SKEW_WARN_MS = 1_000;

/** ioredis settings that make a dead Redis fail calls fast instead of queueing them. */
export function redisClientOptions(timeoutMs: number): RedisOptions {
  return {
    // Commands sent while disconnected fail at once; before the first connection the store waits (bounded by the guard).
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    connectTimeout: Math.max(1_000, timeoutMs * 4),
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    lazyConnect: false,
  };
}

export class RedisCounterStore implements CounterStore {
  private readonly prefix: string;
  private readonly commands: CounterCommands;
  private readonly firstReady: Promise<void>;
  private everReady = false;
  private readonly reconnectListeners: Array<() => void> = [];

  constructor(
    private readonly client: Redis,
    private readonly options: RedisCounterStoreOptions = {},
  ) {
    this.prefix = options.keyPrefix ?? 'gengate:';
    client.defineCommand('gengateAdmit', { numberOfKeys: 0, lua: ADMIT_SCRIPT });
    client.defineCommand('gengateEnd', { numberOfKeys: 0, lua: END_SCRIPT });
    client.defineCommand('gengateRenew', { numberOfKeys: 0, lua: RENEW_SCRIPT });
    client.defineCommand('gengatePeek', { numberOfKeys: 0, lua: PEEK_SCRIPT });
    client.defineCommand('gengateSetSpend', { numberOfKeys: 0, lua: SET_SPEND_SCRIPT });
    this.commands = client as unknown as CounterCommands;
    this.everReady = client.status === 'ready';
    client.on('ready', () => {
      if (this.everReady) for (const listener of this.reconnectListeners) listener();
    });
    this.firstReady = this.everReady
      ? Promise.resolve()
      : new Promise((resolve) =>
          client.once('ready', () => {
            this.everReady = true;
            resolve();
          }),
        );
  }

  /** A store on its own client for `url`, set to fail fast (`redisClientOptions`). */
  static connect(url: string, options: { keyPrefix?: string; timeoutMs: number; onError?: (error: Error) => void }): RedisCounterStore {
    const client = new Redis(url, redisClientOptions(options.timeoutMs));
    client.on('error', (error: Error) => options.onError?.(error));
    return new RedisCounterStore(client, { keyPrefix: options.keyPrefix, ownsClient: true });
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async admit(request: AdmitRequest): Promise<AdmitResult> {
    checkAdmitRequest(request);
    await this.ready();
    const reply = (await this.commands.gengateAdmit(
      this.prefix,
      String(request.now),
      String(request.leaseMs),
      request.reservationId,
      encodeHolds(request.holds),
    )) as string[];
    if (reply[0] === 'duplicate') throw new DuplicateReservation(request.reservationId);
    const states = readStates(request.holds, reply.slice(3));
    if (reply[0] === 'ok') return { ok: true, states };
    const result: AdmitResult = { ok: false, refused: states[Number(reply[1])], states };
    if (reply[2] !== '') result.retryAt = Number(reply[2]);
    return result;
  }

  async settle(reservationId: string, actual: ActualAmounts, now: number): Promise<void> {
    await this.end(reservationId, actual, now, 'settle');
  }

  async release(reservationId: string, now: number): Promise<void> {
    await this.end(reservationId, {}, now, 'release');
  }

  async renew(reservationIds: readonly string[], leaseMs: number, now: number): Promise<void> {
    checkTime(now, 'now');
    if (!(Number.isFinite(leaseMs) && leaseMs > 0)) throw new RangeError('leaseMs must be a positive number');
    for (const id of reservationIds) checkReservationId(id);
    await this.ready();
    for (let start = 0; start < reservationIds.length; start += MAX_RENEW_IDS) {
      await this.commands.gengateRenew(this.prefix, String(now), String(leaseMs), ...reservationIds.slice(start, start + MAX_RENEW_IDS));
    }
  }

  async peek(holds: readonly Hold[], now: number): Promise<HoldState[]> {
    checkTime(now, 'now');
    if (holds.length === 0) return [];
    await this.ready();
    const reply = (await this.commands.gengatePeek(this.prefix, String(now), encodeHolds(holds))) as string[];
    return readStates(holds, reply);
  }

  async seedSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<boolean> {
    return (await this.setSpend(counter, spentNusd, expiresAt, 'seed')) === 1;
  }

  async resetSpend(counter: string, spentNusd: number, expiresAt: number | null): Promise<void> {
    await this.setSpend(counter, spentNusd, expiresAt, 'reset');
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    if (this.client.status !== 'ready') return { ok: false, detail: `redis ${this.client.status}` };
    const [seconds, micros] = (await this.client.time()) as [string | number, string | number];
    const skew = Date.now() - (Number(seconds) * 1000 + Math.floor(Number(micros) / 1000));
    if (Math.abs(skew) > SKEW_WARN_MS) return { ok: true, detail: `clock differs from Redis by ${skew} ms` };
    return { ok: true };
  }

  async close(): Promise<void> {
    if (!this.options.ownsClient) return;
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private async end(reservationId: string, actual: ActualAmounts, now: number, mode: 'settle' | 'release'): Promise<void> {
    checkReservationId(reservationId);
    checkTime(now, 'now');
    await this.ready();
    await this.commands.gengateEnd(this.prefix, String(now), reservationId, JSON.stringify(actual ?? {}), mode);
  }

  private async setSpend(counter: string, spentNusd: number, expiresAt: number | null, mode: 'seed' | 'reset'): Promise<number> {
    checkNusd(spentNusd, 'spentNusd');
    if (expiresAt !== null) checkTime(expiresAt, 'expiresAt');
    await this.ready();
    return Number(await this.commands.gengateSetSpend(this.prefix, String(Date.now()), counter, String(spentNusd), String(expiresAt ?? -1), mode));
  }

  /** Before the first connection, waits for it (the guard's deadline bounds the wait); after, never. */
  private async ready(): Promise<void> {
    if (this.everReady) return;
    // Waiting is for a first connection under way; once an attempt failed, calls fail at once.
    const status = this.client.status;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') throw new Error(`redis ${status}`);
    await this.firstReady;
  }
}

/** The holds as the scripts read them: `{t, c, l, a, x, k}`. */
function encodeHolds(holds: readonly Hold[]): string {
  return JSON.stringify(
    holds.map((hold) => {
      if (hold.type === 'rate') return { t: 'rate', c: hold.counter, l: hold.limit, a: hold.amount, x: -1, k: rateKeptOnRelease(hold.counter) ? 1 : 0 };
      if (hold.type === 'count') return { t: 'count', c: hold.counter, l: hold.limit, a: 1, x: -1, k: 0 };
      return { t: 'spend', c: hold.counter, l: hold.limitNusd, a: hold.amountNusd, x: hold.expiresAt ?? -1, k: 0 };
    }),
  );
}

function readStates(holds: readonly Hold[], pairs: readonly string[]): HoldState[] {
  return holds.map((hold, index) => ({
    counter: hold.counter,
    type: hold.type,
    label: hold.label,
    limit: hold.type === 'spend' ? hold.limitNusd : hold.limit,
    remaining: Number(pairs[index * 2]),
    resetAt: Number(pairs[index * 2 + 1]),
  }));
}
