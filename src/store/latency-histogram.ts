/**
 * The fixed latency histogram of the daily usage rollup: 41 buckets whose bounds grow by 1.4×
 * (1 ms … 700 s, then one open bucket), so a percentile read from merged histograms is off by
 * less than one bucket (at most 40 %) whatever the distribution. The bounds are part of the
 * schema: migration 008 created one column per bucket and filled them with these bounds, so
 * they never change without a migration that rebuilds every rollup table (`usage-rollup.ts`).
 */

/** Upper bounds (exclusive, ms) of buckets 0…39 (round(1.4^n)); bucket 40 holds everything from 700,038 ms up. */
export const LATENCY_BOUNDS: readonly number[] = [
  1, 2, 3, 4, 5, 8, 11, 15, 21, 29, 40, 57, 79, 111, 156, 218, 305, 427, 598, 837, 1171, 1640, 2296, 3214, 4500, 6300, 8820, 12348, 17287, 24201, 33882, 47435,
  66409, 92972, 130161, 182226, 255116, 357162, 500027, 700038,
];

export const LATENCY_BUCKETS = LATENCY_BOUNDS.length + 1;

/** `lat_00` … `lat_40`. */
export const LATENCY_COLUMNS: readonly string[] = Array.from({ length: LATENCY_BUCKETS }, (_, i) => `lat_${String(i).padStart(2, '0')}`);

export function latencyBucket(latencyMs: number): number {
  // Binary search: the first bound above the latency.
  let low = 0;
  let high = LATENCY_BOUNDS.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (latencyMs < LATENCY_BOUNDS[mid]) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The SQL expression giving the bucket of `latency_ms` (used by the backfill). */
export function latencyBucketSql(column = 'latency_ms'): string {
  const cases = LATENCY_BOUNDS.map((bound, i) => `WHEN ${column} < ${bound} THEN ${i}`).join(' ');
  return `CASE ${cases} ELSE ${LATENCY_BOUNDS.length} END`;
}

/**
 * The q-quantile (0 < q ≤ 1) of a histogram, interpolated linearly inside its bucket; the open
 * last bucket answers its lower bound. Null for an empty histogram.
 */
export function histogramQuantile(counts: readonly number[], q: number): number | null {
  let total = 0;
  for (const count of counts) total += count;
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i];
    if (count > 0 && below + count >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS[i - 1];
      if (i >= LATENCY_BOUNDS.length) return lower;
      const upper = LATENCY_BOUNDS[i];
      return Math.round(lower + ((upper - lower) * Math.max(0, rank - below)) / count);
    }
    below += count;
  }
  return LATENCY_BOUNDS[LATENCY_BOUNDS.length - 1];
}

export function percentilesOf(counts: readonly number[]): { p50: number | null; p95: number | null; p99: number | null } {
  return { p50: histogramQuantile(counts, 0.5), p95: histogramQuantile(counts, 0.95), p99: histogramQuantile(counts, 0.99) };
}
