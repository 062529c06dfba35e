/**
 * The targets, checked against one run's figures. Each is a ratio or a difference
 * within the run, so the drift of a shared machine between runs cancels out.
 */
import type { BenchResults, Measurement, TargetName } from './bench-types.js';

export interface TargetCheck {
  name: string;
  required: string;
  measured: string;
  /** undefined when the run lacks the figures (target skipped or not started). */
  met: boolean | undefined;
}

export const TARGET_LIMITS = {
  rpsVsDirect: 0.6,
  rpsVsPortkey: 8,
  addedP50Ms: 0.5,
  addedP99Ms: 2,
  capacityStreams: 1000,
  capacityRssBytes: 200 * 1024 * 1024,
  crossCpuFactor: 1.5,
  responsesCpuFactor: 1.3,
  // Admission under limits: one counter step per rule and a token count of the request; at most a tenth more CPU than a call without.
  limitedCpuFactor: 1.1,
} as const;

export function findMeasurement(results: BenchResults, scenario: string, target: TargetName, connections: number): Measurement | undefined {
  const found = results.measurements.find((m) => m.scenario === scenario && m.target === target && m.connections === connections);
  return found && !found.skipped ? found : undefined;
}

const highest = (results: BenchResults): number => Math.max(...results.settings.connections);
const lowest = (results: BenchResults): number => Math.min(...results.settings.connections);
const fixed = (value: number, digits: number): string => value.toFixed(digits);

export function evaluateTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const c = highest(results);
  const gengate = findMeasurement(results, 'chat', 'gengate', c);
  const direct = findMeasurement(results, 'chat', 'direct', c);
  const portkey = findMeasurement(results, 'chat', 'portkey', c);

  const vsDirect = gengate && direct && direct.rps > 0 ? gengate.rps / direct.rps : undefined;
  checks.push({
    name: `non-stream pass-through, c=${c}: gengate req/s vs direct`,
    required: `≥ ${TARGET_LIMITS.rpsVsDirect * 100} %`,
    measured: vsDirect === undefined ? 'n/a' : `${fixed(vsDirect * 100, 1)} % (${fixed(gengate!.rps, 0)} vs ${fixed(direct!.rps, 0)})`,
    met: vsDirect === undefined ? undefined : vsDirect >= TARGET_LIMITS.rpsVsDirect && gengate!.errors === 0,
  });

  const vsPortkey = gengate && portkey && portkey.rps > 0 ? gengate.rps / portkey.rps : undefined;
  checks.push({
    name: `non-stream pass-through, c=${c}: gengate req/s vs Portkey`,
    required: `≥ ${TARGET_LIMITS.rpsVsPortkey} ×`,
    measured: vsPortkey === undefined ? 'n/a' : `${fixed(vsPortkey, 2)} × (${fixed(gengate!.rps, 0)} vs ${fixed(portkey!.rps, 0)})`,
    met: vsPortkey === undefined ? undefined : vsPortkey >= TARGET_LIMITS.rpsVsPortkey,
  });

  const c1 = lowest(results);
  const gengate1 = findMeasurement(results, 'chat', 'gengate', c1);
  const direct1 = findMeasurement(results, 'chat', 'direct', c1);
  const added50 = gengate1 && direct1 ? gengate1.latency.p50 - direct1.latency.p50 : undefined;
  const added99 = gengate1 && direct1 ? gengate1.latency.p99 - direct1.latency.p99 : undefined;
  checks.push({
    name: `added latency p50, c=${c1} (non-stream pass-through)`,
    required: `≤ ${TARGET_LIMITS.addedP50Ms} ms`,
    measured: added50 === undefined ? 'n/a' : `${fixed(added50, 3)} ms`,
    met: added50 === undefined ? undefined : added50 <= TARGET_LIMITS.addedP50Ms,
  });
  checks.push({
    name: `added latency p99, c=${c1} (non-stream pass-through)`,
    required: `≤ ${TARGET_LIMITS.addedP99Ms} ms`,
    measured: added99 === undefined ? 'n/a' : `${fixed(added99, 3)} ms`,
    met: added99 === undefined ? undefined : added99 <= TARGET_LIMITS.addedP99Ms,
  });

  const capacity = results.capacity.find((r) => r.target === 'gengate' && !r.skipped);
  // Fewer streams than the target (a --quick run) measure the harness, not the target.
  const fullCapacity = capacity !== undefined && capacity.streams >= TARGET_LIMITS.capacityStreams;
  checks.push({
    name: 'concurrent streams through gengate: all held open together and complete byte-correct',
    required: `${TARGET_LIMITS.capacityStreams} of ${TARGET_LIMITS.capacityStreams}, all open at once`,
    measured: capacity
      ? `${capacity.byteIdentical} of ${capacity.streams} byte-identical, ${capacity.maxConcurrent} open at once, slowest headers after ${fixed(capacity.slowestHeadersMs / 1000, 1)} s`
      : 'n/a',
    met: fullCapacity ? capacity.byteIdentical === capacity.streams && capacity.maxConcurrent === capacity.streams : undefined,
  });
  checks.push({
    name: 'gengate peak RSS while holding them',
    required: `≤ ${TARGET_LIMITS.capacityRssBytes / 1024 / 1024} MB`,
    measured: capacity ? `${fixed(capacity.peakRssBytes / 1024 / 1024, 1)} MB` : 'n/a',
    met: fullCapacity ? capacity.peakRssBytes <= TARGET_LIMITS.capacityRssBytes : undefined,
  });

  const cross = findMeasurement(results, 'cross-stream', 'gengate', c);
  const pass = findMeasurement(results, 'chat-stream', 'gengate', c);
  const factor = cross && pass && pass.serverCpuMsPerRequest > 0 ? cross.serverCpuMsPerRequest / pass.serverCpuMsPerRequest : undefined;
  checks.push({
    name: `gengate CPU per request, cross-dialect stream vs pass-through stream, c=${c}`,
    required: `≤ ${TARGET_LIMITS.crossCpuFactor} ×`,
    measured: factor === undefined ? 'n/a' : `${fixed(factor, 2)} × (${fixed(cross!.serverCpuMsPerRequest, 3)} vs ${fixed(pass!.serverCpuMsPerRequest, 3)} ms)`,
    met: factor === undefined ? undefined : factor <= TARGET_LIMITS.crossCpuFactor,
  });

  const responses = findMeasurement(results, 'responses-stream', 'gengate', c);
  const responsesFactor = responses && cross && cross.serverCpuMsPerRequest > 0 ? responses.serverCpuMsPerRequest / cross.serverCpuMsPerRequest : undefined;
  checks.push({
    name: `gengate CPU per request, Responses stream vs chat-completions stream, both translated to Anthropic, c=${c}`,
    required: `≤ ${TARGET_LIMITS.responsesCpuFactor} ×`,
    measured:
      responsesFactor === undefined
        ? 'n/a'
        : `${fixed(responsesFactor, 2)} × (${fixed(responses!.serverCpuMsPerRequest, 3)} vs ${fixed(cross!.serverCpuMsPerRequest, 3)} ms)`,
    met: responsesFactor === undefined ? undefined : responsesFactor <= TARGET_LIMITS.responsesCpuFactor,
  });

  const plainChat = findMeasurement(results, 'chat', 'gengate', c);
  const limited = findMeasurement(results, 'chat-limited', 'gengate', c);
  const limitedFactor =
    limited && plainChat && plainChat.serverCpuMsPerRequest > 0 ? limited.serverCpuMsPerRequest / plainChat.serverCpuMsPerRequest : undefined;
  checks.push({
    name: `gengate CPU per request, chat under a requests and tokens per minute limit (in memory) vs plain chat, c=${c}`,
    required: `≤ ${TARGET_LIMITS.limitedCpuFactor} ×`,
    measured:
      limitedFactor === undefined
        ? 'n/a'
        : `${fixed(limitedFactor, 2)} × (${fixed(limited!.serverCpuMsPerRequest, 3)} vs ${fixed(plainChat!.serverCpuMsPerRequest, 3)} ms)`,
    met: limitedFactor === undefined ? undefined : limitedFactor <= TARGET_LIMITS.limitedCpuFactor,
  });
  return checks;
}
