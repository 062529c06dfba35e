/**
 * The streaming-capacity phase: a mock paced for long streams, then for each target a fresh
 * server process (so its peak memory is its own) holding N streams at once.
 */
import type { CapacityResult, TargetName } from './bench-types.js';
import { briefError } from './brief-error.js';
import type { ChildServer } from './child-processes.js';
import { asRelayedBy, buildMockResponses, MOCK_MODELS, streamToBuffer } from './mock-responses.js';
import { openAIModel, scenarioById, withIncludeUsage, type RequestSpec } from './scenarios.js';
import { DEFAULT_MOCK_OPTIONS } from './mock-upstream.js';
import { GENGATE_KEY, removeWorkDir, startGengate, startMock, startPortkey, UPSTREAM_KEY } from './start-servers.js';
import { runStreamCapacity } from './stream-capacity.js';

export interface CapacityPhaseOptions {
  streams: number;
  tps: number;
  size: number;
  ttftMs: number;
  targets: TargetName[];
  gengateMode: 'dist' | 'tsx';
  gengateRoot: string;
  log: (line: string) => void;
}

function skipped(target: TargetName, streams: number, reason: string): CapacityResult {
  return {
    target,
    streams,
    maxConcurrent: 0,
    slowestHeadersMs: 0,
    byteIdentical: 0,
    contentIntact: 0,
    failed: streams,
    wallSec: 0,
    idleRssBytes: 0,
    peakRssBytes: 0,
    serverCpuSec: 0,
    skipped: reason,
  };
}

export async function runCapacityPhase(options: CapacityPhaseOptions): Promise<CapacityResult[]> {
  const mock = await startMock({ tps: options.tps, size: options.size, ttftMs: options.ttftMs });
  const expected = buildMockResponses({ size: options.size, embeddingDims: DEFAULT_MOCK_OPTIONS.embeddingDims });
  // Clients that meter usage ask for it, so a gateway has no reason to change a byte of the stream.
  const expectedBytes = streamToBuffer(expected.openaiStreamWithUsage);
  const plainBytes = streamToBuffer(expected.openaiStream);
  const streamMs = options.ttftMs + (options.tps > 0 ? (options.size / options.tps) * 1000 : 0);
  const results: CapacityResult[] = [];
  try {
    for (const target of options.targets) {
      let server: ChildServer | undefined;
      let workDir: string | undefined;
      try {
        if (target === 'direct') server = mock;
        else if (target === 'gengate') {
          const gengate = await startGengate({ mockPort: mock.port, mode: options.gengateMode, root: options.gengateRoot });
          server = gengate;
          workDir = gengate.workDir;
        } else server = await startPortkey();
      } catch (error) {
        results.push(skipped(target, options.streams, `did not start: ${briefError((error as Error).message)}`));
        continue;
      }
      try {
        options.log(`capacity: ${options.streams} streams through ${target}…`);
        const plain = scenarioById('chat-stream').request(target, { mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
        const request = withIncludeUsage(plain);
        const result = await runStreamCapacity({
          target,
          baseUrl: server.baseUrl,
          serverPid: server.pid,
          request,
          streams: options.streams,
          expectedBytes: asRelayedBy(expectedBytes, MOCK_MODELS.openai, openAIModel(target)),
          expectedText: expected.text,
          timeoutMs: streamMs * 3 + 60_000,
        });
        const difference = await plainStreamDifference(server.baseUrl, plain, asRelayedBy(plainBytes, MOCK_MODELS.openai, openAIModel(target)));
        results.push({ ...result, plainRequestIdentical: difference === undefined, ...(difference ? { plainRequestDifference: difference } : {}) });
        options.log(
          `capacity: ${target}: ${result.byteIdentical}/${result.streams} byte-identical, ${result.contentIntact} intact, peak RSS ${(result.peakRssBytes / 1048576).toFixed(1)} MB`,
        );
      } finally {
        if (server !== mock) await server.stop();
        if (workDir) removeWorkDir(workDir);
      }
    }
  } finally {
    await mock.stop();
  }
  return results;
}

/**
 * One stream without `stream_options`: does the client get exactly what the upstream would
 * send it? Undefined when identical, else where the bytes first differ.
 */
export async function plainStreamDifference(baseUrl: string, request: RequestSpec, expected: Buffer): Promise<string | undefined> {
  try {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(120_000),
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) return `HTTP ${response.status}`;
    return firstDifference(expected, body);
  } catch (error) {
    return `request failed: ${(error as Error).message}`;
  }
}

/** Where `actual` first departs from `expected`, with a little context; undefined when equal. */
export function firstDifference(expected: Buffer, actual: Buffer): string | undefined {
  if (expected.equals(actual)) return undefined;
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const show = (bytes: Buffer): string => JSON.stringify(bytes.subarray(Math.max(0, at - 20), at + 30).toString('utf8'));
  return `${actual.length} bytes instead of ${expected.length}; from byte ${at}: expected ${show(expected)}, got ${show(actual)}`;
}
