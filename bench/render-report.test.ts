import { describe, expect, it } from 'vitest';
import type { BenchResults, Measurement, TargetName } from './bench-types.js';
import { evaluateTargets } from './check-targets.js';
import { BEGIN_MARKER, END_MARKER, mergeIntoDocument, renderResultsSection } from './render-report.js';

function cell(scenario: string, target: TargetName, connections: number, rps: number, p50: number, p99: number, extra: Partial<Measurement> = {}): Measurement {
  return {
    scenario,
    target,
    connections,
    durationSec: 8,
    rps,
    latency: { count: Math.round(rps * 8), mean: p50, p50, p90: p99, p99, max: p99 },
    errors: 0,
    statuses: { 200: Math.round(rps * 8) },
    serverCpuCores: 0.9,
    serverCpuMsPerRequest: 0.25,
    serverPeakRssBytes: 80 * 1024 * 1024,
    mockCpuCores: target === 'direct' ? 0 : 0.4,
    loadCpuCores: 0.8,
    ...extra,
  };
}

function results(): BenchResults {
  return {
    startedAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:11:00.000Z',
    machine: {
      cpus: 2,
      cpuModel: 'Test CPU',
      memory: '23Gi',
      os: 'Linux 6',
      node: 'v20.20.2',
      gengateVersion: '0.1.0',
      gengateCommit: 'abc1234',
      portkeyVersion: '1.15.2',
      honoNodeServerVersion: '1.13.8',
      autocannonVersion: '8.0.0',
    },
    settings: {
      command: 'npm run bench',
      durationSec: 8,
      warmupSec: 1,
      rounds: 4,
      connections: [1, 64],
      mock: { latencyMs: 0, ttftMs: 0, tps: 0, size: 64 },
      capacity: { streams: 1000, tps: 10, size: 100, ttftMs: 100 },
    },
    measurements: [
      cell('chat', 'direct', 1, 4000, 0.2, 0.5),
      cell('chat', 'gengate', 1, 2000, 0.45, 1.1),
      cell('chat', 'portkey', 1, 500, 1.9, 3.5),
      cell('chat', 'direct', 64, 10000, 6, 9),
      cell('chat', 'gengate', 64, 6500, 9.5, 14),
      cell('chat-limited', 'gengate', 64, 6300, 9.8, 14.5, { serverCpuMsPerRequest: 0.27 }),
      cell('chat', 'portkey', 64, 700, 90, 120),
      cell('chat', 'bare-proxy', 64, 8000, 7, 11),
      cell('chat-stream', 'gengate', 64, 3000, 20, 30, { serverCpuMsPerRequest: 0.4 }),
      cell('cross-stream', 'gengate', 64, 2000, 30, 45, { serverCpuMsPerRequest: 0.7 }),
      cell('responses-stream', 'gengate', 64, 1900, 31, 47, { serverCpuMsPerRequest: 0.77 }),
      cell('embeddings', 'gengate', 64, 0, Number.NaN, Number.NaN, {
        errors: 5000,
        statuses: { 404: 5000 },
        probe: 'HTTP 404 {"error":{"message":"no route"}}',
      }),
      cell('bad-key', 'portkey', 64, 0, 0, 0, { skipped: 'did not start: missing' }),
    ],
    capacity: [
      {
        target: 'gengate',
        streams: 1000,
        maxConcurrent: 1000,
        slowestHeadersMs: 400,
        byteIdentical: 1000,
        contentIntact: 1000,
        failed: 0,
        wallSec: 10.4,
        idleRssBytes: 70 * 1024 * 1024,
        peakRssBytes: 150 * 1024 * 1024,
        serverCpuSec: 3.2,
        plainRequestIdentical: false,
        plainRequestDifference: 'from byte 10: expected "a", got "b"',
      },
    ],
    notes: ['embeddings, gengate, c=64: 5000 errors'],
  };
}

describe('evaluateTargets', () => {
  it('checks every target of the issue from the figures', () => {
    const checks = evaluateTargets(results());
    expect(checks.map((c) => [c.measured, c.met])).toEqual([
      ['65.0 % (6500 vs 10000)', true],
      ['9.29 × (6500 vs 700)', true],
      ['0.250 ms', true],
      ['0.600 ms', true],
      ['1000 of 1000 byte-identical, 1000 open at once, slowest headers after 0.4 s', true],
      ['150.0 MB', true],
      ['1.75 × (0.700 vs 0.400 ms)', false],
      ['1.10 × (0.770 vs 0.700 ms)', true],
      ['1.08 × (0.270 vs 0.250 ms)', true],
    ]);
  });

  it('says "not measured" rather than guessing when figures are missing', () => {
    const partial = results();
    partial.measurements = partial.measurements.filter((m) => m.target !== 'portkey');
    partial.capacity = [];
    const checks = evaluateTargets(partial);
    expect(checks[1]).toMatchObject({ measured: 'n/a', met: undefined });
    expect(checks[4]).toMatchObject({ measured: 'n/a', met: undefined });
  });

  it('leaves the stream targets unjudged when a quick run opened fewer streams', () => {
    const quick = results();
    quick.capacity[0] = { ...quick.capacity[0], streams: 200, maxConcurrent: 200, byteIdentical: 200, contentIntact: 200 };
    const checks = evaluateTargets(quick);
    expect(checks[4]).toMatchObject({ measured: '200 of 200 byte-identical, 200 open at once, slowest headers after 0.4 s', met: undefined });
    expect(checks[5]).toMatchObject({ measured: '150.0 MB', met: undefined });
  });

  it('does not count streams that queued instead of being held open together', () => {
    const queued = results();
    queued.capacity[0] = { ...queued.capacity[0], maxConcurrent: 256, slowestHeadersMs: 31_000 };
    const check = evaluateTargets(queued)[4];
    expect(check).toEqual({
      name: 'concurrent streams through gengate: all held open together and complete byte-correct',
      required: '1000 of 1000, all open at once',
      measured: '1000 of 1000 byte-identical, 256 open at once, slowest headers after 31.0 s',
      met: false,
    });
  });

  it('does not count a fast gateway with errors as meeting the throughput target', () => {
    const withErrors = results();
    withErrors.measurements[4] = cell('chat', 'gengate', 64, 9000, 5, 8, { errors: 3 });
    expect(evaluateTargets(withErrors)[0].met).toBe(false);
  });
});

describe('renderResultsSection', () => {
  const section = renderResultsSection(results());

  it('is wrapped in the markers and names machine, versions and command', () => {
    expect(section.startsWith(BEGIN_MARKER)).toBe(true);
    expect(section.endsWith(END_MARKER)).toBe(true);
    expect(section).toContain('| CPUs | 2 × Test CPU');
    expect(section).toContain('| Node.js | v20.20.2 |');
    expect(section).toContain('| Portkey gateway | 1.15.2 (@hono/node-server 1.13.8) |');
    expect(section).toContain(
      'Command: `npm run bench` — 8 s measured per cell (in 4 slices interleaved across targets) after 1 s of warm-up, concurrency 1 and 64.',
    );
  });

  it('has a target table with verdicts', () => {
    expect(section).toContain('| non-stream pass-through, c=64: gengate req/s vs direct | ≥ 60 % | 65.0 % (6500 vs 10000) | **met** |');
    expect(section).toContain(
      '| gengate CPU per request, cross-dialect stream vs pass-through stream, c=64 | ≤ 1.5 × | 1.75 × (0.700 vs 0.400 ms) | **missed** |',
    );
  });

  it('puts the targets first, then the latest results with their summary table before the details', () => {
    const order = ['## Targets', '## Latest results (2026-01-02 03:04 UTC)', '| scenario | c | direct |', '### Every cell', '### Streaming capacity'];
    const positions = order.map((heading) => section.indexOf(heading));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('has a summary row per scenario and concurrency, and one row per measured cell with added latency against direct', () => {
    expect(section).toContain('| chat, OpenAI → OpenAI (pass-through) | 64 | 10000 | 8000 | 6500 | 700 | 0.65 | 0.81 | 9.29 | +3.50 | +5.00 | 0.250 |');
    expect(section).toContain('| chat stream, OpenAI → OpenAI (pass-through) | 64 | – | – | 3000 | – | – | – | – | – | – | 0.400 |');
    // No row where the run measured nothing.
    expect(section).not.toContain('| chat stream, OpenAI → OpenAI (pass-through) | 1 |');
    expect(section).toContain('| 1 | gengate | 2000 | 0.45 | 1.10 | +0.25 | +0.60 | 0 | 0.90 | 0.250 | 80.0 | 0.40 | 200×16000 |');
    expect(section).toContain('| 1 | direct | 4000 | 0.20 | 0.50 |  |  | 0 | 0.90 | 0.250 | 80.0 |  | 200×32000 |');
  });

  it('shows errors with their statuses and the probe answer, and skipped cells with the reason', () => {
    expect(section).toContain(
      '| 64 | gengate | 0 | – | – |  |  | 5000 | 0.90 | 0.250 | 80.0 | 0.40 | 404×5000; probe: HTTP 404 {"error":{"message":"no route"}} |',
    );
    expect(section).toContain('skipped: did not start: missing');
    expect(section).toContain('- embeddings, gengate, c=64: 5000 errors');
  });

  it('has the capacity table', () => {
    expect(section).toContain('| gengate | 1000 | 1000 | 0.4 | 1000 | 1000 | 0 | 10.4 | 70.0 | 150.0 | 3.20 | no |  |');
    expect(section).toContain('Without `stream_options`, gengate: from byte 10: expected "a", got "b"');
  });

  it('has no baseline table when no baseline was measured', () => {
    expect(section).not.toContain('against the baseline');
  });

  it('compares CPU per request with a baseline checkout measured in the same run', () => {
    const run = results();
    run.machine.baselineCommit = '5d6063e at /work/old';
    run.measurements.push(
      cell('chat-stream', 'gengate-base', 64, 3100, 19, 29, { serverCpuMsPerRequest: 0.5 }),
      cell('cross-stream', 'gengate-base', 64, 2100, 29, 44, { serverCpuMsPerRequest: 0.625 }),
      cell('embeddings', 'gengate-base', 64, 5000, 5, 9, { skipped: 'did not start: gone' }),
    );
    const withBaseline = renderResultsSection(run);
    expect(withBaseline).toContain('| baseline (gengate-base) | 5d6063e at /work/old |');
    expect(withBaseline).toContain('### CPU per request against the baseline');
    expect(withBaseline).toContain('| chat-stream | 64 | 0.500 | 0.400 | -20.0 % |');
    expect(withBaseline).toContain('| cross-stream | 64 | 0.625 | 0.700 | +12.0 % |');
    // A cell either side could not measure has no comparison.
    expect(withBaseline).not.toMatch(/\| embeddings \| 64 \| [0-9.]+ \|/);
    expect(withBaseline).toContain('| 64 | gengate-base | 3100 |');
  });
});

describe('mergeIntoDocument', () => {
  it('replaces only the generated section and keeps the prose around it', () => {
    const doc = `# Benchmarks\n\nAnalysis written by hand.\n\n${BEGIN_MARKER}\nold figures\n${END_MARKER}\n\n## Afterword\n`;
    const merged = mergeIntoDocument(doc, `${BEGIN_MARKER}\nnew figures\n${END_MARKER}`);
    expect(merged).toBe(`# Benchmarks\n\nAnalysis written by hand.\n\n${BEGIN_MARKER}\nnew figures\n${END_MARKER}\n\n## Afterword\n`);
  });

  it('appends a section to a document without markers, and starts a new one from nothing', () => {
    expect(mergeIntoDocument('# Notes\n', 'S')).toBe('# Notes\n\nS\n');
    const fresh = mergeIntoDocument(undefined, 'S');
    expect(fresh.indexOf('## How to run')).toBeGreaterThan(fresh.indexOf('# Benchmarks'));
    expect(fresh.indexOf('\nS\n')).toBeGreaterThan(fresh.indexOf('## How to run'));
    expect(fresh.indexOf('## What we learned')).toBeGreaterThan(fresh.indexOf('\nS\n'));
  });
});
