/**
 * Recent outcomes of real upstream attempts per channel, for the channels' health: calls and
 * upstream failures over the last five minutes, counted in 10-second buckets in memory (this
 * process only; no timer: old buckets are dropped when the channel is next counted or read).
 * An attempt that failed by the client's doing (a bad request, a client gone) is a call, not
 * an upstream error.
 */
import type { GatewayError } from '../core/errors.js';

export const ERROR_WINDOW_MS = 5 * 60_000;
const BUCKET_MS = 10_000;
const BUCKETS = ERROR_WINDOW_MS / BUCKET_MS;
/** Channels counted at once; past it, the one counted least recently is forgotten. */
const MAX_CHANNELS = 10_000;

interface Bucket {
  /** The bucket's index (time / BUCKET_MS); a slot holding another index is stale. */
  index: number;
  calls: number;
  errors: number;
}

export interface ErrorCounts {
  calls: number;
  errors: number;
}

export class ChannelErrorWindow {
  private readonly channels = new Map<string, Bucket[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one attempt on the channel; `error` as the attempt loop classified it. */
  record(channel: string, error?: GatewayError): void {
    let buckets = this.channels.get(channel);
    if (buckets) {
      this.channels.delete(channel);
    } else {
      if (this.channels.size >= MAX_CHANNELS) this.channels.delete(this.channels.keys().next().value as string);
      buckets = Array.from({ length: BUCKETS }, () => ({ index: -1, calls: 0, errors: 0 }));
    }
    this.channels.set(channel, buckets);
    const index = Math.floor(this.now() / BUCKET_MS);
    const bucket = buckets[index % BUCKETS];
    if (bucket.index !== index) {
      bucket.index = index;
      bucket.calls = 0;
      bucket.errors = 0;
    }
    bucket.calls++;
    if (error?.errorType.startsWith('upstream.')) bucket.errors++;
  }

  /** Calls and upstream errors of the channel over the last five minutes. */
  counts(channel: string): ErrorCounts {
    const buckets = this.channels.get(channel);
    const counts = { calls: 0, errors: 0 };
    if (!buckets) return counts;
    const oldest = Math.floor(this.now() / BUCKET_MS) - BUCKETS + 1;
    for (const bucket of buckets) {
      if (bucket.index < oldest) continue;
      counts.calls += bucket.calls;
      counts.errors += bucket.errors;
    }
    return counts;
  }

  /** Forgets channels that are no longer in force. */
  keepOnly(names: ReadonlySet<string>): void {
    for (const name of this.channels.keys()) if (!names.has(name)) this.channels.delete(name);
  }
}
