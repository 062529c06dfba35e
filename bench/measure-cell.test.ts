import { describe, expect, it } from 'vitest';
import { combineSlices, type SliceResult } from './measure-cell.js';

function slice(partial: Partial<SliceResult>): SliceResult {
  return {
    ok: 0,
    errors: 0,
    statuses: {},
    elapsedSec: 1,
    samples: new Float64Array(),
    serverCpuSec: 0,
    serverPeakRssBytes: 0,
    mockCpuSec: 0,
    loadCpuSec: 0,
    ...partial,
  };
}

describe('combineSlices', () => {
  it('rates over the summed time, percentiles over all samples, peaks as the maximum', () => {
    const measurement = combineSlices({ scenario: 'chat', target: 'gengate', connections: 64 }, [
      slice({
        ok: 3,
        elapsedSec: 2,
        samples: Float64Array.from([1, 2, 3]),
        statuses: { 200: 3 },
        serverCpuSec: 0.5,
        serverPeakRssBytes: 100,
        mockCpuSec: 0.2,
        loadCpuSec: 0.4,
      }),
      slice({
        ok: 1,
        errors: 2,
        elapsedSec: 2,
        samples: Float64Array.from([10]),
        statuses: { 200: 1, 502: 2 },
        serverCpuSec: 1.5,
        serverPeakRssBytes: 300,
        mockCpuSec: 0.2,
        loadCpuSec: 0.4,
      }),
    ]);
    expect(measurement).toMatchObject({
      scenario: 'chat',
      target: 'gengate',
      connections: 64,
      durationSec: 4,
      rps: 1,
      errors: 2,
      statuses: { 200: 4, 502: 2 },
      serverCpuCores: 0.5,
      serverCpuMsPerRequest: 500,
      serverPeakRssBytes: 300,
      mockCpuCores: 0.1,
      loadCpuCores: 0.2,
    });
    expect(measurement.latency).toEqual({ count: 4, mean: 4, p50: 2, p90: 10, p99: 10, max: 10 });
    expect(measurement.probe).toBeUndefined();
  });

  it('keeps the probe answer and reports no mock CPU for direct', () => {
    const measurement = combineSlices({ scenario: 'embeddings', target: 'direct', connections: 1 }, [slice({ mockCpuSec: 3 })], 'HTTP 404 nope');
    expect(measurement.mockCpuCores).toBe(0);
    expect(measurement.rps).toBe(0);
    expect(measurement.serverCpuMsPerRequest).toBe(0);
    expect(measurement.probe).toBe('HTTP 404 nope');
  });
});
