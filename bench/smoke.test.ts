/**
 * A few seconds of the real harness (mock + gengate from src/ through tsx, no build, no
 * Portkey) so it cannot rot: requests succeed through gengate, figures come out, the
 * report renders them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults, Measurement } from './bench-types.js';
import type { ChildServer } from './child-processes.js';
import { measureInterleaved, probe } from './measure-cell.js';
import { asRelayedBy, buildMockResponses, MOCK_MODELS, streamToBuffer } from './mock-responses.js';
import { renderResultsSection } from './render-report.js';
import { openAIModel, scenarioById, withIncludeUsage } from './scenarios.js';
import { GENGATE_KEY, removeWorkDir, startGengate, startMock, UPSTREAM_KEY, type RunningGengate } from './start-servers.js';
import { runStreamCapacity } from './stream-capacity.js';

const MOCK = { size: 16, tps: 80, ttftMs: 20 };

describe('benchmark smoke run (mock + gengate)', () => {
  let mock: ChildServer;
  let gengate: RunningGengate;
  const endpoints = () => ({ mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });

  beforeAll(async () => {
    mock = await startMock(MOCK);
    gengate = await startGengate({ mockPort: mock.port, mode: 'tsx' });
  }, 60_000);

  afterAll(async () => {
    await gengate?.stop();
    if (gengate) removeWorkDir(gengate.workDir);
    await mock?.stop();
  }, 30_000);

  it('measures non-stream pass-through directly and through gengate, and reports it', async () => {
    const chat = scenarioById('chat');
    const cells = (['direct', 'gengate'] as const).map((target) => {
      const server = target === 'direct' ? mock : gengate;
      return {
        scenario: 'chat',
        target,
        baseUrl: server.baseUrl,
        serverPid: server.pid,
        mockPid: target === 'gengate' ? mock.pid : undefined,
        request: chat.request(target, endpoints()),
        connections: 4,
      };
    });
    const measurements: Measurement[] = await measureInterleaved(cells, { durationSec: 0.8, warmupSec: 0.1, rounds: 2 });
    const [direct, through] = measurements;
    for (const m of measurements) {
      expect(m.probe).toBeUndefined();
      expect(m.errors).toBe(0);
      expect(m.rps).toBeGreaterThan(20);
      expect(Object.keys(m.statuses)).toEqual(['200']);
      expect(m.latency.p50).toBeGreaterThan(0);
      expect(m.latency.p99).toBeGreaterThanOrEqual(m.latency.p50);
      expect(m.serverCpuCores).toBeGreaterThan(0);
      expect(m.serverPeakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
    }
    expect(through.mockCpuCores).toBeGreaterThan(0);
    expect(direct.mockCpuCores).toBe(0);

    const results: BenchResults = {
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
      machine: {
        cpus: 2,
        cpuModel: 'smoke',
        memory: '-',
        os: 'Linux',
        node: process.version,
        gengateVersion: '0',
        gengateCommit: '-',
        portkeyVersion: '-',
        honoNodeServerVersion: '-',
        autocannonVersion: '-',
      },
      settings: {
        command: 'smoke',
        durationSec: 0.8,
        warmupSec: 0.1,
        rounds: 2,
        connections: [4],
        mock: { latencyMs: 0, ...MOCK },
        capacity: { streams: 0, tps: 0, size: 0, ttftMs: 0 },
      },
      measurements,
      capacity: [],
      notes: [],
    };
    const section = renderResultsSection(results);
    expect(section).toMatch(/\| 4 \| gengate \| \d+ \| \d+\.\d\d \| \d+\.\d\d \| [+-]\d+\.\d\d \| [+-]\d+\.\d\d \| 0 \|/);
    expect(section).toContain('| non-stream pass-through, c=4: gengate req/s vs direct | ≥ 60 % |');
  }, 60_000);

  it('answers the rejected-key scenario with 401 and the stream scenarios with 200', async () => {
    for (const id of ['bad-key', 'chat-stream', 'cross-stream', 'anthropic-stream', 'responses-stream']) {
      expect(await probe(gengate.baseUrl, scenarioById(id).request('gengate', endpoints())), id).toBeUndefined();
    }
  }, 30_000);

  it('holds concurrent streams through gengate and relays them byte for byte', async () => {
    const expected = buildMockResponses({ size: MOCK.size, embeddingDims: 1536 });
    const result = await runStreamCapacity({
      target: 'gengate',
      baseUrl: gengate.baseUrl,
      serverPid: gengate.pid,
      request: withIncludeUsage(scenarioById('chat-stream').request('gengate', endpoints())),
      streams: 20,
      expectedBytes: asRelayedBy(streamToBuffer(expected.openaiStreamWithUsage), MOCK_MODELS.openai, openAIModel('gengate')),
      expectedText: 'lorem ipsum dolor sit amet consectetur adipiscing elit lorem ipsum dolor sit amet consectetur adipiscing elit',
      timeoutMs: 20_000,
    });
    expect(result.firstFailure).toBeUndefined();
    expect(result.byteIdentical).toBe(20);
    expect(result.maxConcurrent).toBeGreaterThan(1);
    expect(result.peakRssBytes).toBeGreaterThan(0);
  }, 30_000);
});
