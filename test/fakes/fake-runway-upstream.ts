/**
 * A fake Runway developer API on a real `node:http` server, following the published wire format
 * (the official SDK's routes and types): Bearer key and `X-Runway-Version: 2024-11-06` on every
 * call; `POST /v1/image_to_video {model, promptImage, promptText, ratio, duration, seed}` (models
 * `gen4_turbo`, `gen4.5`) and `POST /v1/text_to_video {model, promptText, ratio, duration, seed}`
 * (`gen4.5` only) answering `{id}` (a UUID); `GET /v1/tasks/{id}` → `{id, createdAt, status:
 * PENDING|THROTTLED|RUNNING (progress 0–1)|SUCCEEDED (output:[url])|FAILED (failure, failureCode)|
 * CANCELLED}`; `DELETE /v1/tasks/{id}` (204): cancels a task not finished, deletes a finished one
 * (a deleted task answers 404). Errors are `{error}` (400 adds `issues`), 401, 404, 429, 5xx.
 *
 * Tasks follow a settable clock (`advance`): PENDING for `pendingMs` (THROTTLED instead after
 * `throttleNextTask`), RUNNING with growing progress until `processingMs`, then SUCCEEDED with an
 * output served by the fake itself (a tiny MP4, `fakeVideoBytes(id)`) that answers 404 after
 * `outputTtlMs` or `expireOutputs()`. Injectable: `failNextTask(failure, failureCode)`,
 * `failCreates` (5xx, nothing created), `throttleReads` (429 with Retry-After), `hangNextCreate`
 * (creates the task, never answers).
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, readBody, sendJson } from './fake-http.js';
import { fakeVideoBytes } from './fake-video-bytes.js';

export const FAKE_RUNWAY_KEY = `key_${'ab12'.repeat(32)}`;
export const RUNWAY_VERSION = '2024-11-06';
const GEN4_IMAGE_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'];
const IMAGE_MODELS: Record<string, string[]> = { gen4_turbo: GEN4_IMAGE_RATIOS, 'gen4.5': GEN4_IMAGE_RATIOS };
const TEXT_MODELS: Record<string, string[]> = { 'gen4.5': ['1280:720', '720:1280'] };
/** Runway's output URLs expire within 24–48 hours. */
const DEFAULT_OUTPUT_TTL_MS = 24 * 60 * 60_000;
const MAX_DATA_URI_CHARS = 5 * 1024 * 1024 - 1;

type Json = Record<string, unknown>;

export interface RunwayRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json | undefined;
}

export interface FakeRunwayTask {
  id: string;
  route: 'image_to_video' | 'text_to_video';
  body: Json;
  createdAt: number;
  throttledMs: number;
  failure?: { failure: string; failureCode: string };
  cancelledAt?: number;
  deleted?: boolean;
  outputsExpired?: boolean;
}

export interface FakeRunwayUpstreamOptions {
  pendingMs?: number;
  /** From the end of PENDING/THROTTLED to the end (default 60 s: only `advance` moves a task on). */
  processingMs?: number;
  outputTtlMs?: number;
}

export interface FakeRunwayUpstream {
  url: string;
  requests: RunwayRecordedRequest[];
  tasks: Map<string, FakeRunwayTask>;
  now(): number;
  advance(ms: number): void;
  videoBytes(id: string): Buffer;
  expireOutputs(): void;
  /** The next task created fails when it would have succeeded. */
  failNextTask(failure: string, failureCode: string): void;
  /** The next task created stays THROTTLED for `ms` before it starts. */
  throttleNextTask(ms: number): void;
  failCreates(count: number, status?: number): void;
  throttleReads(count: number, retryAfterSeconds: number): void;
  hangNextCreate(): void;
  close(): Promise<void>;
}

export async function startFakeRunwayUpstream(options: FakeRunwayUpstreamOptions = {}): Promise<FakeRunwayUpstream> {
  const pendingMs = options.pendingMs ?? 5_000;
  const processingMs = options.processingMs ?? 60_000;
  const outputTtlMs = options.outputTtlMs ?? DEFAULT_OUTPUT_TTL_MS;
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const requests: RunwayRecordedRequest[] = [];
  const tasks = new Map<string, FakeRunwayTask>();
  const hanging = new Set<ServerResponse>();
  let base = '';
  let nextFailure: FakeRunwayTask['failure'];
  let nextThrottleMs = 0;
  let failing = { count: 0, status: 502 };
  let throttled = { count: 0, retryAfterSeconds: 1 };
  let hangNext = false;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `Internal error: ${String(error)}` });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = new URL(req.url ?? '/', base).pathname;
    let body: Json | undefined;
    try {
      body = text.length > 0 ? (JSON.parse(text) as Json) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });

    const output = /^\/outputs\/([^/]+)\/video\.mp4$/.exec(path);
    if (req.method === 'GET' && output) return serveVideo(res, output[1]);

    if (req.headers.authorization !== `Bearer ${FAKE_RUNWAY_KEY}`) return sendJson(res, 401, { error: 'Incorrect API key provided' });
    if (req.headers['x-runway-version'] !== RUNWAY_VERSION) {
      return sendJson(res, 400, { error: `Invalid or missing X-Runway-Version header. Supported versions: ${RUNWAY_VERSION}` });
    }

    const route = /^\/v1\/(image_to_video|text_to_video)$/.exec(path);
    if (req.method === 'POST' && route) {
      if (failing.count > 0) {
        failing.count--;
        return sendJson(res, failing.status, { error: 'Runway is shedding load. Please retry.' });
      }
      if (body === undefined) return sendJson(res, 400, { error: 'Request body must be JSON' });
      return create(res, route[1] as FakeRunwayTask['route'], body);
    }
    const one = /^\/v1\/tasks\/([^/]+)$/.exec(path);
    if (one && req.method === 'GET') {
      if (throttled.count > 0) {
        throttled.count--;
        return sendJson(res, 429, { error: 'You have exceeded the rate limit' }, { 'retry-after': String(throttled.retryAfterSeconds) });
      }
      const task = tasks.get(one[1]);
      return task && !task.deleted ? sendJson(res, 200, view(task)) : sendJson(res, 404, { error: 'Task not found' });
    }
    if (one && req.method === 'DELETE') {
      const task = tasks.get(one[1]);
      if (!task || task.deleted) return sendJson(res, 404, { error: 'Task not found' });
      if (isActive(statusOf(task))) task.cancelledAt = now();
      else task.deleted = true;
      res.writeHead(204).end();
      return;
    }
    sendJson(res, 404, { error: 'Not found' });
  }

  function create(res: ServerResponse, route: FakeRunwayTask['route'], body: Json): void {
    const issues = validate(route, body);
    if (issues.length > 0) return sendJson(res, 400, { error: 'Validation of body failed', issues });
    if (typeof body.promptText === 'string' && body.promptText.includes('forbidden')) {
      return sendJson(res, 400, { error: 'Your prompt did not pass our content moderation.' });
    }
    const task: FakeRunwayTask = { id: randomUUID(), route, body, createdAt: now(), throttledMs: nextThrottleMs, failure: nextFailure };
    nextFailure = undefined;
    nextThrottleMs = 0;
    tasks.set(task.id, task);
    if (hangNext) {
      hangNext = false;
      hanging.add(res);
      return;
    }
    sendJson(res, 200, { id: task.id });
  }

  function validate(route: FakeRunwayTask['route'], body: Json): Json[] {
    const issues: Json[] = [];
    const fail = (path: string, message: string) => issues.push({ path: [path], message });
    const ratios = (route === 'image_to_video' ? IMAGE_MODELS : TEXT_MODELS)[body.model as string];
    if (!ratios) fail('model', `Invalid model for ${route}`);
    if (route === 'image_to_video' && !validPromptImage(body.promptImage))
      fail('promptImage', 'Invalid asset: an HTTPS URL on a domain, or a data URI under 5MB');
    const promptText = body.promptText;
    if (promptText !== undefined && (typeof promptText !== 'string' || promptText.length === 0 || promptText.length > 1000)) {
      fail('promptText', 'String must contain between 1 and 1000 characters');
    }
    if (promptText === undefined && (route === 'text_to_video' || body.model === 'gen4.5')) fail('promptText', 'Required');
    if (ratios && !ratios.includes(body.ratio as string)) fail('ratio', `Invalid enum value. Expected ${ratios.map((r) => `'${r}'`).join(' | ')}`);
    const duration = body.duration;
    if (duration !== undefined && (!Number.isInteger(duration) || (duration as number) < 2 || (duration as number) > 10))
      fail('duration', 'Must be an integer from 2 to 10');
    const seed = body.seed;
    if (seed !== undefined && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 4_294_967_295)) fail('seed', 'Invalid seed');
    return issues;
  }

  function statusOf(task: FakeRunwayTask): string {
    if (task.cancelledAt !== undefined) return 'CANCELLED';
    const age = now() - task.createdAt;
    if (age < task.throttledMs) return 'THROTTLED';
    if (age < task.throttledMs + pendingMs) return 'PENDING';
    if (age < task.throttledMs + processingMs) return 'RUNNING';
    return task.failure ? 'FAILED' : 'SUCCEEDED';
  }

  function view(task: FakeRunwayTask): Json {
    const status = statusOf(task);
    const common = { id: task.id, createdAt: new Date(task.createdAt).toISOString(), status };
    if (status === 'RUNNING') {
      const ran = now() - task.createdAt - task.throttledMs - pendingMs;
      return { ...common, progress: Math.floor((ran / (processingMs - pendingMs)) * 100) / 100 };
    }
    if (status === 'SUCCEEDED') return { ...common, output: [`${base}/outputs/${task.id}/video.mp4`] };
    if (status === 'FAILED') return { ...common, ...task.failure };
    return common;
  }

  function serveVideo(res: ServerResponse, id: string): void {
    const task = tasks.get(id);
    const endedAt = task ? task.createdAt + task.throttledMs + processingMs : 0;
    if (!task || task.deleted || task.outputsExpired || statusOf(task) !== 'SUCCEEDED' || now() > endedAt + outputTtlMs) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const bytes = fakeVideoBytes(id);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length }).end(bytes);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    tasks,
    now,
    advance(ms) {
      offsetMs += ms;
    },
    videoBytes: fakeVideoBytes,
    expireOutputs() {
      for (const task of tasks.values()) task.outputsExpired = true;
    },
    failNextTask(failure, failureCode) {
      nextFailure = { failure, failureCode };
    },
    throttleNextTask(ms) {
      nextThrottleMs = ms;
    },
    failCreates(count, status = 502) {
      failing = { count, status };
    },
    throttleReads(count, retryAfterSeconds) {
      throttled = { count, retryAfterSeconds };
    },
    hangNextCreate() {
      hangNext = true;
    },
    close() {
      for (const res of hanging) res.destroy();
      return closeServer(server);
    },
  };
}

/** A channel pointing at the fake. */
export function fakeRunwayChannel(upstream: FakeRunwayUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return { name: 'fake-runway', provider: 'runway', baseUrl: upstream.url, apiKey: FAKE_RUNWAY_KEY, headers: {}, timeoutMs: 5_000, options: {}, ...overrides };
}

function isActive(status: string): boolean {
  return status === 'PENDING' || status === 'THROTTLED' || status === 'RUNNING';
}

/** As Runway checks assets: an https URL on a domain name (not an IP), or an image data URI under 5 MB. */
function validPromptImage(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value.startsWith('data:')) return value.length <= MAX_DATA_URI_CHARS && /^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/]+=*$/.test(value);
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 && value.length <= 2048;
  } catch {
    return false;
  }
}
