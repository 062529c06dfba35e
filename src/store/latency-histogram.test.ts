import { describe, expect, it } from 'vitest';
import { histogramQuantile, LATENCY_BOUNDS, LATENCY_BUCKETS, latencyBucket, percentilesOf } from './latency-histogram.js';

function histogramOf(samples: number[]): number[] {
  const counts = new Array(LATENCY_BUCKETS).fill(0);
  for (const sample of samples) counts[latencyBucket(sample)]++;
  return counts;
}

function exactQuantile(sorted: number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
}

/** Deterministic uniform numbers in [0, 1). */
function uniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('latency histogram', () => {
  it('has strictly growing bounds, at most 1.43× apart (1.4 and integer rounding) above 10 ms', () => {
    for (let i = 1; i < LATENCY_BOUNDS.length; i++) {
      expect(LATENCY_BOUNDS[i]).toBeGreaterThan(LATENCY_BOUNDS[i - 1]);
      if (LATENCY_BOUNDS[i - 1] >= 10) expect(LATENCY_BOUNDS[i] / LATENCY_BOUNDS[i - 1]).toBeLessThan(1.43);
    }
  });

  it('puts a latency in the bucket whose bounds hold it', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(1)).toBe(1);
    expect(latencyBucket(39)).toBe(10);
    expect(latencyBucket(40)).toBe(11);
    expect(latencyBucket(700_037)).toBe(39);
    expect(latencyBucket(700_038)).toBe(40);
    expect(latencyBucket(10 ** 9)).toBe(40);
  });

  it.each([
    ['uniform 0–2 s', (r: () => number) => r() * 2000],
    ['exponential, mean 300 ms', (r: () => number) => -300 * Math.log(1 - r())],
    ['log-normal around 800 ms', (r: () => number) => 800 * Math.exp(Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()))],
    ['bimodal: cache hits at 20 ms, misses at 4 s', (r: () => number) => (r() < 0.7 ? 15 + r() * 10 : 3000 + r() * 2000)],
  ])('answers p50, p95 and p99 within one bucket of the exact value: %s', (_name, draw) => {
    const next = uniform(7);
    const samples = Array.from({ length: 20_000 }, () => Math.round(draw(next)));
    const sorted = [...samples].sort((a, b) => a - b);
    const estimated = percentilesOf(histogramOf(samples));
    for (const [q, value] of [
      [0.5, estimated.p50],
      [0.95, estimated.p95],
      [0.99, estimated.p99],
    ] as const) {
      const exact = exactQuantile(sorted, q);
      expect(value).not.toBeNull();
      expect(Math.abs(latencyBucket(value as number) - latencyBucket(exact))).toBeLessThanOrEqual(1);
      if (exact >= 20) expect(Math.max(value as number, exact) / Math.min(value as number, exact)).toBeLessThan(1.43);
    }
  });

  it('answers null for no requests, and the lower bound of the open last bucket', () => {
    expect(percentilesOf(new Array(LATENCY_BUCKETS).fill(0))).toEqual({ p50: null, p95: null, p99: null });
    expect(histogramQuantile(histogramOf([2_000_000]), 0.5)).toBe(700_038);
    expect(histogramQuantile(histogramOf([5, 5, 5, 5]), 0.99)).toBeGreaterThanOrEqual(5);
  });
});
