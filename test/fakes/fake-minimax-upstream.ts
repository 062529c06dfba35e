/**
 * A fake MiniMax video API on a real `node:http` server, following the published wire format
 * (platform.minimax.io, video generation): Bearer key; errors as HTTP 200 with a non-zero
 * `base_resp.status_code` (1004 for a missing or wrong key, 2013 for bad parameters, 1026 for a
 * sensitive prompt), except what the fake is told to answer with an HTTP status.
 *
 * - `POST /v1/video_generation {model, prompt, duration?, resolution?, first_frame_image?,
 *   callback_url?, prompt_optimizer?, …}` → `{task_id, base_resp}`. Models, durations and
 *   resolutions are checked as MiniMax documents them (01 series 6 s at 720P; Hailuo-02 6/10 s
 *   at 512P (image only), 768P, 1080P (6 s only); Hailuo-2.3(-Fast) 6/10 s at 768P/1080P; I2V
 *   models and 2.3-Fast need a first frame, T2V models refuse one). `callback_url` is recorded
 *   on the task, never called.
 * - `GET /v1/query/video_generation?task_id=` → `{task_id, status, file_id, video_width,
 *   video_height, base_resp}`: Preparing (first 5 % of `taskMs`), Queueing (to 20 %),
 *   Processing, then Success with a `file_id`, or Fail with the reason given to
 *   `failNextTask` — all on the fake's clock (`now()`, moved by `advance(ms)`), computed when read.
 * - `GET /v1/files/retrieve?file_id=` → `{file:{file_id, bytes, created_at, filename, purpose,
 *   download_url}, base_resp}`. Each retrieve signs a new download URL, valid `urlTtlMs` on the
 *   fake's clock (or until `expireFiles()`); the fake serves a real MP4 there without auth, and
 *   403 once expired.
 *
 * Faults: `nextError(route, code, message?)` (one base_resp error each), `httpErrors(count,
 * status, retryAfter?)` (the next `/v1` requests answer that HTTP status), `failNextTask`,
 * `forceStatus(id, status)`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, sendJson } from './fake-http.js';
import { fakeMp4 } from './fake-mp4.js';

export const FAKE_MINIMAX_KEY = 'fake-minimax-key-8c1e0b';

export type FakeMinimaxRoute = 'video_generation' | 'query' | 'retrieve';

export interface FakeMinimaxTask {
  id: string;
  fileId: string;
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  /** What `first_frame_image` was: a URL as sent, a data URL as its head and length. */
  firstFrame?: string;
  callbackUrl?: string;
  /** On the fake's clock. */
  submittedAt: number;
  taskMs: number;
  failure?: { reason: string; code?: number };
  forcedStatus?: string;
}

export interface FakeMinimaxRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** The JSON body with long strings cut to `<N chars>` (data URLs keep their head). */
  body: unknown;
  status?: number;
  /** What a `/v1` route answered. */
  answer?: unknown;
}

export interface FakeMinimaxOptions {
  apiKey?: string;
  /** How long a task takes on the fake's clock (default 60 s). */
  taskMs?: number;
  /** How long a signed download URL stays valid on the fake's clock (default 1 h). */
  urlTtlMs?: number;
  /** The fake's clock (default real time). */
  now?: () => number;
  /** Words that make a prompt answer 1026 (default `forbiddenword`). */
  sensitiveWords?: string[];
}

export interface FakeMinimaxUpstream {
  /** The API host, as a channel's base URL. */
  url: string;
  requests: FakeMinimaxRequest[];
  tasks: Map<string, FakeMinimaxTask>;
  now(): number;
  advance(ms: number): void;
  setTaskMs(ms: number): void;
  nextError(route: FakeMinimaxRoute, code: number, message?: string): void;
  httpErrors(count: number, status: number, retryAfter?: string): void;
  /** The next task fails when done: with `code`, as a base_resp error; without, as `error_message`. */
  failNextTask(reason: string, code?: number): void;
  forceStatus(id: string, status: string): void;
  /** Every download URL signed so far answers 403 from now on. */
  expireFiles(): void;
  /** The MP4 the fake serves for a task. */
  videoOf(id: string): Buffer;
  /** Download URLs served with a 200. */
  downloads(): string[];
  submits(): FakeMinimaxRequest[];
  close(): Promise<void>;
}

interface ModelRules {
  durations: number[];
  /** Resolution → the durations it allows. */
  resolutions: Record<string, number[]>;
  defaultResolution: string;
  imageOnly?: string[];
  firstFrame: 'optional' | 'required' | 'refused';
}

const SIX = [6];
const RULES_01 = { durations: SIX, resolutions: { '720P': SIX }, defaultResolution: '720P' };
const HAILUO_23 = { durations: [6, 10], resolutions: { '768P': [6, 10], '1080P': SIX }, defaultResolution: '768P' };
const MODELS: Record<string, ModelRules> = {
  'video-01': { ...RULES_01, firstFrame: 'optional' },
  'T2V-01': { ...RULES_01, firstFrame: 'refused' },
  'T2V-01-Director': { ...RULES_01, firstFrame: 'refused' },
  'I2V-01': { ...RULES_01, firstFrame: 'required' },
  'I2V-01-Director': { ...RULES_01, firstFrame: 'required' },
  'I2V-01-live': { ...RULES_01, firstFrame: 'required' },
  'MiniMax-Hailuo-02': {
    durations: [6, 10],
    resolutions: { '512P': [6, 10], '768P': [6, 10], '1080P': SIX },
    defaultResolution: '768P',
    imageOnly: ['512P'],
    firstFrame: 'optional',
  },
  'MiniMax-Hailuo-2.3': { ...HAILUO_23, firstFrame: 'optional' },
  'MiniMax-Hailuo-2.3-Fast': { ...HAILUO_23, firstFrame: 'required' },
};
const SIZES: Record<string, [number, number]> = { '512P': [912, 512], '720P': [1280, 720], '768P': [1366, 768], '1080P': [1920, 1080] };
const DATA_URL = /^data:image\/(jpeg|jpg|png|webp);base64,[A-Za-z0-9+/]+=*$/;
const NOT_LOGGED_IN = "login fail: Please carry the API secret key in the 'Authorization' field of the request header";

export async function startFakeMinimaxUpstream(options: FakeMinimaxOptions = {}): Promise<FakeMinimaxUpstream> {
  const apiKey = options.apiKey ?? FAKE_MINIMAX_KEY;
  const urlTtlMs = options.urlTtlMs ?? 60 * 60 * 1000;
  const sensitiveWords = options.sensitiveWords ?? ['forbiddenword'];
  const clock = options.now ?? Date.now;
  let offset = 0;
  let taskMs = options.taskMs ?? 60_000;
  let nextFailure: FakeMinimaxTask['failure'];
  let httpFaults = { count: 0, status: 500, retryAfter: undefined as string | undefined };
  const injected: Record<FakeMinimaxRoute, Array<{ code: number; message?: string }>> = { video_generation: [], query: [], retrieve: [] };
  const requests: FakeMinimaxRequest[] = [];
  const tasks = new Map<string, FakeMinimaxTask>();
  const signed = new Map<string, { taskId: string; expiresAt: number }>();
  const served: string[] = [];
  const videos = new Map<string, Buffer>();
  let counter = 0;
  let base = '';
  const now = () => clock() + offset;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { base_resp: { status_code: 1000, status_msg: `unknown error: ${String(error)}` } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    let body: unknown;
    let malformed = false;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      malformed = true;
    }
    const recorded: FakeMinimaxRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: summarize(body, 0),
    };
    requests.push(recorded);
    res.on('finish', () => {
      recorded.status = res.statusCode;
    });
    const answer = (value: unknown) => {
      recorded.answer = value;
      sendJson(res, 200, value);
    };

    const download = /^\/files\/([^/]+)\/output_aigc\.mp4$/.exec(url.pathname);
    if (method === 'GET' && download) return serveDownload(res, url);
    if (!url.pathname.startsWith('/v1/')) return sendJson(res, 404, { base_resp: { status_code: 1000, status_msg: 'not found' } });

    if (httpFaults.count > 0) {
      httpFaults.count -= 1;
      const headers: Record<string, string> = httpFaults.retryAfter ? { 'retry-after': httpFaults.retryAfter } : {};
      const status_msg = httpFaults.status === 429 ? 'rate limit exceeded(RPM)' : 'service unavailable';
      return sendJson(res, httpFaults.status, { base_resp: { status_code: httpFaults.status === 429 ? 1002 : 1000, status_msg } }, headers);
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return answer({ base_resp: { status_code: 1004, status_msg: NOT_LOGGED_IN } });

    if (url.pathname === '/v1/video_generation' && method === 'POST') {
      const fault = injected.video_generation.shift();
      if (fault) return answer({ task_id: '', base_resp: { status_code: fault.code, status_msg: fault.message ?? 'injected error' } });
      if (malformed || body === null || typeof body !== 'object' || Array.isArray(body)) return answer(invalidParams('body is not a JSON object'));
      return answer(createTask(body as Record<string, unknown>));
    }
    if (url.pathname === '/v1/query/video_generation' && method === 'GET') {
      const fault = injected.query.shift();
      if (fault) return answer({ base_resp: { status_code: fault.code, status_msg: fault.message ?? 'injected error' } });
      return answer(queryTask(url.searchParams.get('task_id') ?? ''));
    }
    if (url.pathname === '/v1/files/retrieve' && method === 'GET') {
      const fault = injected.retrieve.shift();
      if (fault) return answer({ base_resp: { status_code: fault.code, status_msg: fault.message ?? 'injected error' } });
      return answer(retrieveFile(url.searchParams.get('file_id') ?? ''));
    }
    return sendJson(res, 404, { base_resp: { status_code: 1000, status_msg: `no route ${method} ${url.pathname}` } });
  }

  function createTask(body: Record<string, unknown>): Record<string, unknown> {
    const model = typeof body.model === 'string' ? MODELS[body.model] : undefined;
    if (!model) return invalidParams(`model ${JSON.stringify(body.model)} is not supported`);
    const prompt = body.prompt ?? '';
    if (typeof prompt !== 'string' || prompt.length > 2000) return invalidParams('prompt must be a string of at most 2000 characters');
    const frame = body.first_frame_image;
    if (frame !== undefined && (typeof frame !== 'string' || !(DATA_URL.test(frame) || /^https?:\/\/\S+$/.test(frame)))) {
      return invalidParams('first_frame_image must be a public URL or a base64 data URL');
    }
    if (model.firstFrame === 'required' && frame === undefined) return invalidParams('first_frame_image is required for this model');
    if (model.firstFrame === 'refused' && frame !== undefined) return invalidParams('this model does not take first_frame_image');
    if (frame === undefined && prompt.trim() === '') return invalidParams('prompt is required');
    const resolution = body.resolution ?? model.defaultResolution;
    if (typeof resolution !== 'string' || !model.resolutions[resolution]) return invalidParams(`resolution ${JSON.stringify(resolution)} is not supported`);
    if (model.imageOnly?.includes(resolution) && frame === undefined) return invalidParams(`resolution ${resolution} needs first_frame_image`);
    const duration = body.duration ?? model.durations[0];
    if (typeof duration !== 'number' || !model.resolutions[resolution].includes(duration)) {
      return invalidParams(`duration ${JSON.stringify(duration)} is not supported at ${resolution}`);
    }
    if (sensitiveWords.some((word) => prompt.toLowerCase().includes(word))) {
      return { task_id: '', base_resp: { status_code: 1026, status_msg: 'input new_sensitive' } };
    }
    counter += 1;
    const id = String(106_916_112_212_000 + counter);
    const task: FakeMinimaxTask = {
      id,
      fileId: String(205_258_526_306_000 + counter),
      model: body.model as string,
      prompt,
      duration,
      resolution,
      firstFrame: frame === undefined ? undefined : (summarize(frame, 0) as string),
      callbackUrl: typeof body.callback_url === 'string' ? body.callback_url : undefined,
      submittedAt: now(),
      taskMs,
      failure: nextFailure,
    };
    nextFailure = undefined;
    tasks.set(id, task);
    return { task_id: id, base_resp: { status_code: 0, status_msg: 'success' } };
  }

  function statusOf(task: FakeMinimaxTask): string {
    if (task.forcedStatus) return task.forcedStatus;
    const elapsed = now() - task.submittedAt;
    if (elapsed >= task.taskMs) return task.failure ? 'Fail' : 'Success';
    if (elapsed < task.taskMs * 0.05) return 'Preparing';
    if (elapsed < task.taskMs * 0.2) return 'Queueing';
    return 'Processing';
  }

  function queryTask(id: string): Record<string, unknown> {
    const task = tasks.get(id);
    if (!task) return invalidParams('task_id not found');
    const status = statusOf(task);
    const record: Record<string, unknown> = { task_id: id, status, file_id: '', video_width: 0, video_height: 0 };
    if (status === 'Success') {
      const [width, height] = SIZES[task.resolution];
      Object.assign(record, { file_id: task.fileId, video_width: width, video_height: height });
    }
    if (status === 'Fail' && task.failure?.code !== undefined) {
      record.base_resp = { status_code: task.failure.code, status_msg: task.failure.reason };
      return record;
    }
    if (status === 'Fail' && task.failure) record.error_message = task.failure.reason;
    record.base_resp = { status_code: 0, status_msg: 'success' };
    return record;
  }

  function retrieveFile(fileId: string): Record<string, unknown> {
    const task = [...tasks.values()].find((candidate) => candidate.fileId === fileId);
    if (!task || statusOf(task) !== 'Success') return invalidParams('file not found');
    const signature = randomBytes(12).toString('hex');
    const expiresAt = now() + urlTtlMs;
    signed.set(signature, { taskId: task.id, expiresAt });
    const video = videoOf(task.id);
    return {
      file: {
        file_id: Number(fileId),
        bytes: video.length,
        created_at: Math.floor((task.submittedAt + task.taskMs) / 1000),
        filename: 'output_aigc.mp4',
        purpose: 'video_generation',
        download_url: `${base}/files/${fileId}/output_aigc.mp4?Expires=${Math.floor(expiresAt / 1000)}&Signature=${signature}`,
      },
      base_resp: { status_code: 0, status_msg: 'success' },
    };
  }

  function serveDownload(res: ServerResponse, url: URL): void {
    const grant = signed.get(url.searchParams.get('Signature') ?? '');
    if (!grant || now() >= grant.expiresAt) {
      const denied = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired.</Message></Error>';
      res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(denied) });
      res.end(denied);
      return;
    }
    const video = videoOf(grant.taskId);
    served.push(url.toString());
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': video.length });
    res.end(video);
  }

  function videoOf(id: string): Buffer {
    const task = tasks.get(id);
    if (!task) throw new Error(`the fake MiniMax has no task ${id}`);
    let video = videos.get(id);
    if (!video) {
      video = fakeMp4(task.duration, `fake-minimax task ${id} ${task.model} ${task.resolution}`);
      videos.set(id, video);
    }
    return video;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    tasks,
    now,
    advance: (ms) => {
      offset += ms;
    },
    setTaskMs: (ms) => {
      taskMs = ms;
    },
    nextError: (route, code, message) => {
      injected[route].push({ code, message });
    },
    httpErrors: (count, status, retryAfter) => {
      httpFaults = { count, status, retryAfter };
    },
    failNextTask: (reason, code) => {
      nextFailure = { reason, code };
    },
    forceStatus: (id, status) => {
      const task = tasks.get(id);
      if (!task) throw new Error(`the fake MiniMax has no task ${id}`);
      task.forcedStatus = status;
    },
    expireFiles: () => {
      for (const grant of signed.values()) grant.expiresAt = Number.NEGATIVE_INFINITY;
    },
    videoOf,
    downloads: () => [...served],
    submits: () => requests.filter((request) => request.path === '/v1/video_generation'),
    close: () => closeServer(server),
  };
}

function invalidParams(why: string): Record<string, unknown> {
  return { base_resp: { status_code: 2013, status_msg: `invalid params, ${why}` } };
}

/** Long strings become `<N chars>` (a data URL keeps its `data:<type>;base64,` head), so records stay small. */
function summarize(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= 200) return value;
    const head = /^data:[^,]{1,64},/.exec(value)?.[0];
    return head ? `${head}<${value.length - head.length} chars>` : `<${value.length} chars>`;
  }
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 20).map((item) => summarize(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, summarize(item, depth + 1)]));
}
