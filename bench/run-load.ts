/**
 * One bounded load window with autocannon against one URL: every response's latency is kept
 * raw (sub-millisecond), statuses are counted, and the window stops by itself.
 */
import autocannon from 'autocannon';
import { SampleRecorder, type LatencySummary } from './percentiles.js';
import type { RequestSpec } from './scenarios.js';

export interface LoadOptions {
  baseUrl: string;
  request: RequestSpec;
  connections: number;
  durationSec: number;
  /** Seconds a single request may take before it counts as a timeout. */
  timeoutSec?: number;
  /** Requests per second across all connections; unset, every connection sends as fast as it can. */
  rate?: number;
}

export interface LoadResult {
  /** Responses with the expected status. */
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedSec: number;
  rps: number;
  latency: LatencySummary;
  /** Every accepted response's latency in ms, to merge windows before taking percentiles. */
  samples: Float64Array;
  loadCpuSec: number;
}

export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { request } = options;
  const recorder = new SampleRecorder();
  const statuses: Record<string, number> = {};
  let ok = 0;
  let wrongStatus = 0;
  const cpuAtStart = process.cpuUsage();
  const startedAt = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${options.baseUrl}${request.path}`,
        connections: options.connections,
        duration: options.durationSec,
        timeout: options.timeoutSec ?? 10,
        ...(options.rate === undefined ? {} : { overallRate: options.rate }),
        method: request.method,
        headers: request.headers,
        body: request.body,
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsedSec = Number(process.hrtime.bigint() - startedAt) / 1e9;
        const cpu = process.cpuUsage(cpuAtStart);
        resolve({
          ok,
          // autocannon's `errors` already includes its timeouts
          errors: wrongStatus + result.errors,
          statuses,
          elapsedSec,
          rps: ok / elapsedSec,
          latency: recorder.summary(),
          samples: recorder.values().slice(),
          loadCpuSec: (cpu.user + cpu.system) / 1e6,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode === request.expectStatus) {
        ok++;
        recorder.record(responseTime);
      } else {
        wrongStatus++;
      }
    });
  });
}
