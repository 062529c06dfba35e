/**
 * The streaming-capacity check: N long streams opened together and held until the end, each
 * compared with the bytes the mock sends, while the server's memory is sampled.
 */
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';
import type { CapacityResult, TargetName } from './bench-types.js';
import { meterProcess, memory } from './proc-stats.js';
import type { RequestSpec } from './scenarios.js';

export interface CapacityOptions {
  target: TargetName;
  baseUrl: string;
  serverPid: number;
  request: RequestSpec;
  streams: number;
  /** Exactly what the mock sends for this request. */
  expectedBytes: Buffer;
  /** The text the stream carries, to tell "reframed but intact" from "broken". */
  expectedText: string;
  /** Upper bound for the whole check; streams still open then count as failed. */
  timeoutMs: number;
}

export interface StreamVerdict {
  byteIdentical: boolean;
  contentIntact: boolean;
  problem?: string;
}

/** Reads an OpenAI chat SSE body: the concatenated delta texts and whether `[DONE]` ended it. */
export function openAIStreamText(body: string): { text: string; done: boolean } {
  let text = '';
  let done = false;
  for (const frame of body.split(/\r?\n\r?\n/)) {
    for (const line of frame.split(/\r?\n/)) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') {
        done = true;
        continue;
      }
      try {
        const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string | null } }> };
        text += chunk.choices?.[0]?.delta?.content ?? '';
      } catch {
        return { text, done: false };
      }
    }
  }
  return { text, done };
}

export function judgeStream(status: number, body: Buffer, expectedBytes: Buffer, expectedText: string): StreamVerdict {
  if (status !== 200) return { byteIdentical: false, contentIntact: false, problem: `status ${status}: ${body.toString('utf8').slice(0, 200)}` };
  if (body.equals(expectedBytes)) return { byteIdentical: true, contentIntact: true };
  const { text, done } = openAIStreamText(body.toString('utf8'));
  if (text === expectedText && done) return { byteIdentical: false, contentIntact: true };
  return {
    byteIdentical: false,
    contentIntact: false,
    problem: `got ${body.length} bytes (expected ${expectedBytes.length}), text ${text.length}/${expectedText.length} chars, [DONE] ${done ? 'seen' : 'missing'}`,
  };
}

export async function runStreamCapacity(options: CapacityOptions): Promise<CapacityResult> {
  const pool = new Pool(options.baseUrl, {
    connections: options.streams + 8,
    pipelining: 1,
    bodyTimeout: options.timeoutMs,
    headersTimeout: options.timeoutMs,
  });
  const idleRssBytes = memory(options.serverPid).rss;
  const meter = meterProcess(options.serverPid, 50);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  setMaxListeners(options.streams + 16, deadline);
  const startedAt = performance.now();
  let open = 0;
  let maxOpen = 0;
  let slowestHeadersMs = 0;
  const one = async (): Promise<StreamVerdict> => {
    let counted = false;
    const sentAt = performance.now();
    try {
      const response = await pool.request({
        method: options.request.method,
        path: options.request.path,
        headers: options.request.headers,
        body: options.request.body,
        signal: deadline,
      });
      slowestHeadersMs = Math.max(slowestHeadersMs, performance.now() - sentAt);
      open++;
      counted = true;
      maxOpen = Math.max(maxOpen, open);
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
      return judgeStream(response.statusCode, Buffer.concat(chunks), options.expectedBytes, options.expectedText);
    } catch (error) {
      return { byteIdentical: false, contentIntact: false, problem: (error as Error).message };
    } finally {
      if (counted) open--;
    }
  };
  // Opened in small batches so the server's accept backlog is never the limit being measured.
  const pending: Array<Promise<StreamVerdict>> = [];
  for (let i = 0; i < options.streams; i++) {
    pending.push(one());
    if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const verdicts = await Promise.all(pending);
  const wallSec = (performance.now() - startedAt) / 1000;
  const usage = meter.stop();
  await pool.close();
  const firstFailure = verdicts.find((v) => !v.contentIntact)?.problem;
  return {
    target: options.target,
    streams: options.streams,
    byteIdentical: verdicts.filter((v) => v.byteIdentical).length,
    contentIntact: verdicts.filter((v) => v.contentIntact).length,
    failed: verdicts.filter((v) => !v.contentIntact).length,
    ...(firstFailure ? { firstFailure } : {}),
    wallSec,
    idleRssBytes,
    peakRssBytes: usage.peakRssBytes,
    serverCpuSec: usage.cpuSeconds,
    maxConcurrent: maxOpen,
    slowestHeadersMs,
  };
}
