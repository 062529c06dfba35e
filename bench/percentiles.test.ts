import { describe, expect, it } from 'vitest';
import { percentile, SampleRecorder, summarize } from './percentiles.js';

describe('percentile (nearest rank)', () => {
  const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('picks the value at rank ceil(p·n/100)', () => {
    expect(percentile(oneToHundred, 50)).toBe(50);
    expect(percentile(oneToHundred, 99)).toBe(99);
    expect(percentile(oneToHundred, 100)).toBe(100);
    expect(percentile(oneToHundred, 0.5)).toBe(1);
  });

  it('handles small and odd-sized lists', () => {
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 75)).toBe(3);
    expect(percentile([1, 2, 3, 4], 76)).toBe(4);
  });

  it('gives NaN for no samples and rejects percentiles outside (0, 100]', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('sorts numerically (not as strings) without touching the input', () => {
    const samples = [10, 9, 100, 2, 1.5];
    const summary = summarize(samples);
    expect(samples).toEqual([10, 9, 100, 2, 1.5]);
    expect(summary).toEqual({ count: 5, mean: 24.5, p50: 9, p90: 100, p99: 100, max: 100 });
  });

  it('keeps sub-millisecond resolution', () => {
    const samples = [0.21, 0.25, 0.23, 0.22, 0.24, 0.26, 0.2, 0.27, 0.28, 1.9];
    const summary = summarize(samples);
    expect(summary.p50).toBe(0.24);
    expect(summary.p90).toBe(0.28);
    expect(summary.p99).toBe(1.9);
  });

  it('reports NaN figures for an empty run', () => {
    const summary = summarize([]);
    expect(summary.count).toBe(0);
    expect(summary.mean).toBeNaN();
    expect(summary.p50).toBeNaN();
  });
});

describe('SampleRecorder', () => {
  it('grows past its initial capacity and summarises every sample', () => {
    const recorder = new SampleRecorder(2);
    for (let i = 1000; i >= 1; i--) recorder.record(i / 10);
    expect(recorder.count).toBe(1000);
    const summary = recorder.summary();
    expect(summary.count).toBe(1000);
    expect(summary.p50).toBe(50);
    expect(summary.p99).toBe(99);
    expect(summary.max).toBe(100);
    expect(summary.mean).toBeCloseTo(50.05, 10);
  });
});
