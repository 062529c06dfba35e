/**
 * Latency samples and their percentiles. Samples are kept raw (not in a histogram) because the
 * targets are sub-millisecond; a run of bounded length keeps at most a few hundred thousand.
 */

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** A growable list of float samples (milliseconds) that allocates once per doubling. */
export class SampleRecorder {
  private samples: Float64Array;
  private length = 0;

  constructor(initialCapacity = 16_384) {
    this.samples = new Float64Array(Math.max(1, initialCapacity));
  }

  record(value: number): void {
    if (this.length === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.length++] = value;
  }

  get count(): number {
    return this.length;
  }

  /** The samples recorded so far (a view, valid until the next `record`). */
  values(): Float64Array {
    return this.samples.subarray(0, this.length);
  }

  summary(): LatencySummary {
    return summarize(this.values());
  }
}

/**
 * The nearest-rank percentile of ascending `sorted` values: the smallest value such that at
 * least `p` % of the samples are ≤ it. `p` is in (0, 100]; an empty list gives NaN.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** Count, mean, p50, p90, p99 and max of unsorted samples (the input is not modified). */
export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (let i = 0; i < sorted.length; i++) sum += sorted[i];
  const count = sorted.length;
  return {
    count,
    mean: count === 0 ? Number.NaN : sum / count,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: count === 0 ? Number.NaN : sorted[count - 1],
  };
}
