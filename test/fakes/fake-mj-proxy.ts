/**
 * A fake MJ proxy (midjourney-proxy) on a real `node:http` server, following the published wire
 * format: routes under `/mj`, header `mj-api-secret` (401 with an empty body without it).
 *
 * - `POST /mj/submit/imagine {prompt, base64Array?}`, `/mj/submit/blend {base64Array (2–5 data
 *   URLs), dimensions}`, `/mj/submit/describe {base64}`, `/mj/submit/action {taskId, customId}`
 *   → HTTP 200 `{code, description, result, properties}`: 1 success, 3 the task acted on is
 *   unknown, 4 validation error, 21 already exists (an upscale asked twice: the existing task's
 *   id), 22 queued, 23 queue full, 24 banned prompt (`properties.bannedWord`). `notifyHook` and
 *   `state` are kept as the proxy keeps them (`properties.notifyHook`, `state`), so a test sees
 *   what a client would have leaked.
 * - `GET /mj/task/{id}/fetch` → the task record; an unknown id answers 200 with an empty body
 *   (the proxy returns null). `POST /mj/task/list-by-condition {ids}` → the known ones' records.
 * - `GET /mj/task/{id}/image-seed` → `{code:1, result:"<seed>"}`; 404 code 3 for an unknown
 *   task, 400 code 4 while it has no image.
 *
 * Records: times in ms, progress `"0%"`…`"100%"` (`""` after a failure), `imageUrl` (a preview
 * while in progress, the result on SUCCESS, served by the fake as a real PNG at
 * `/attachments/<id>.png` without auth until `resultTtlMs` after the finish or `expireResults()`),
 * buttons U1–U4, 🔄 reroll, V1–V4 after IMAGINE/BLEND/VARIATION/REROLL. A task moves NOT_START
 * (first 10 % of `taskMs`) → SUBMITTED (to 20 %) → IN_PROGRESS (progress rising) → SUCCESS at
 * `taskMs`, all on the fake's clock (`now()`, settable, moved by `advance(ms)`); states are
 * computed when read, so nothing runs in the background.
 *
 * Faults: `nextSubmitCode(code)` (one answer each), `rateLimitPolls(n, retryAfter)` (the next n
 * `/mj/task/…` requests answer 429), `failNextTask(reason)`, `forceStatus(id, status)`,
 * `setDelay(ms)` (every `/mj` answer waits that long, real time), `setAttachmentDelay(ms)` (result
 * images likewise). Each recorded request carries when it arrived and when its answer was sent or
 * its connection dropped (real time), and `onAnswer` tells a test the moment an answer went out.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { closeServer, readBody, sendJson } from './fake-http.js';

export const FAKE_MJ_SECRET = 'fake-mj-api-secret-3f9a';

export type FakeMjAction = 'IMAGINE' | 'UPSCALE' | 'VARIATION' | 'REROLL' | 'DESCRIBE' | 'BLEND';

export interface FakeMjTask {
  id: string;
  action: FakeMjAction;
  prompt: string;
  /** Hash the buttons carry (the Discord message's). */
  hash: string;
  seed: string;
  /** On the fake's clock. */
  submittedAt: number;
  taskMs: number;
  failReason?: string;
  forcedStatus?: string;
  parentId?: string;
  customId?: string;
  notifyHook?: unknown;
  state?: unknown;
  /** What a DESCRIBE found. */
  described?: string;
}

export interface FakeMjRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body with long strings cut to `<N chars>` (data URLs keep their `data:<type>;base64,` head). */
  body: unknown;
  /** The HTTP status answered. */
  status?: number;
  /** What a submit answered. */
  answer?: Record<string, unknown>;
  /** Real time (ms) the request arrived, and the answer was sent or the client went away. */
  receivedAt: number;
  endedAt?: number;
  /** The client's connection closed before the answer was sent (e.g. the client was killed). */
  aborted?: boolean;
}

export interface FakeMjProxyOptions {
  secret?: string;
  /** How long a task takes from submit to SUCCESS on the fake's clock (default 400 ms). */
  taskMs?: number;
  /** How long a result image stays downloadable after the task finished (default 10 min). */
  resultTtlMs?: number;
  /** The fake's clock (default real time). */
  now?: () => number;
  /** Words that make a prompt answer code 24 (default `bannedword`). */
  bannedWords?: string[];
}

export interface FakeMjProxy {
  /** The proxy's host, as a channel's base URL (the routes are under `/mj`). */
  url: string;
  requests: FakeMjRecordedRequest[];
  tasks: Map<string, FakeMjTask>;
  now(): number;
  setNow(now: () => number): void;
  /** Moves the fake's clock forward. */
  advance(ms: number): void;
  setTaskMs(ms: number): void;
  nextSubmitCode(code: number, description?: string): void;
  rateLimitPolls(count: number, retryAfter: string): void;
  failNextTask(reason: string): void;
  forceStatus(id: string, status: string): void;
  setDelay(ms: number): void;
  /** Result images (`/attachments/…`) answer after this long, real time. */
  setAttachmentDelay(ms: number): void;
  /** Called the moment an answer has been handed to the network; returns the unsubscribe. */
  onAnswer(listener: (request: FakeMjRecordedRequest) => void): () => void;
  setSeedFault(status: 400 | 404 | 500 | undefined): void;
  /** Every result image so far answers 404 from now on. */
  expireResults(): void;
  /** The record `fetch` would answer now. */
  record(id: string): Record<string, unknown> | undefined;
  /** Submits received, in order (every route under `/mj/submit/`). */
  submits(): FakeMjRecordedRequest[];
  close(): Promise<void>;
}

const DATA_URL = /^data:image\/(png|jpeg|jpg|webp|gif);base64,[A-Za-z0-9+/]+=*$/;
const DIMENSIONS = ['PORTRAIT', 'SQUARE', 'LANDSCAPE'];
const GRID_ACTIONS = new Set<FakeMjAction>(['IMAGINE', 'BLEND', 'VARIATION', 'REROLL']);
const DESCRIPTIONS: Record<number, string> = {
  1: 'Submit success',
  3: 'Related task does not exist or has expired',
  4: 'Validation error',
  9: 'Submit failed',
  21: 'Task already exists',
  22: 'In queue, there are 1 tasks ahead',
  23: 'The queue is full, please try again later',
  24: 'May contain sensitive words',
};

export async function startFakeMjProxy(options: FakeMjProxyOptions = {}): Promise<FakeMjProxy> {
  const secret = options.secret ?? FAKE_MJ_SECRET;
  const resultTtlMs = options.resultTtlMs ?? 10 * 60 * 1000;
  const bannedWords = options.bannedWords ?? ['bannedword'];
  let taskMs = options.taskMs ?? 400;
  let clock = options.now ?? Date.now;
  let offset = 0;
  let delayMs = 0;
  let attachmentDelayMs = 0;
  const answerListeners = new Set<(request: FakeMjRecordedRequest) => void>();
  let rateLimited = { count: 0, retryAfter: '1' };
  let nextFailure: string | undefined;
  let seedFault: 400 | 404 | 500 | undefined;
  const submitCodes: Array<{ code: number; description?: string }> = [];
  const requests: FakeMjRecordedRequest[] = [];
  const tasks = new Map<string, FakeMjTask>();
  const expired = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const idBase = Date.now() * 1000;
  let counter = 0;
  let base = '';
  const gridPng = await sharp({ create: { width: 128, height: 128, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  const upscalePng = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();

  const now = () => clock() + offset;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { timestamp: now(), status: 500, error: 'Internal Server Error', message: String(error) });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = new URL(req.url ?? '/', base).pathname;
    const method = req.method ?? 'GET';
    let body: unknown;
    let malformed = false;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      malformed = true;
    }
    const recorded: FakeMjRecordedRequest = { method, path, headers: req.headers, body: summarize(body, 0), receivedAt: Date.now() };
    requests.push(recorded);
    res.on('finish', () => {
      recorded.status = res.statusCode;
      recorded.endedAt ??= Date.now();
      for (const listener of answerListeners) listener(recorded);
    });
    res.on('close', () => {
      if (recorded.endedAt !== undefined) return;
      recorded.endedAt = Date.now();
      recorded.aborted = true;
    });

    const attachment = /^\/attachments\/([^/]+)\.png$/.exec(path);
    if (method === 'GET' && attachment) {
      if (attachmentDelayMs > 0) await sleep(attachmentDelayMs);
      return serveAttachment(res, attachment[1]);
    }
    if (!path.startsWith('/mj/')) return notFound(res, path);

    if (delayMs > 0) await sleep(delayMs);
    if (secret && req.headers['mj-api-secret'] !== secret) {
      res.writeHead(401, { 'content-length': 0 });
      res.end();
      return;
    }
    if (malformed) return sendJson(res, 400, { timestamp: now(), status: 400, error: 'Bad Request', path });
    const json = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

    const submit = /^\/mj\/submit\/(imagine|blend|describe|action)$/.exec(path);
    if (submit) {
      if (method !== 'POST') return methodNotAllowed(res, path);
      const answer = submitTask(submit[1], json);
      recorded.answer = answer;
      return sendJson(res, 200, answer);
    }
    if (path.startsWith('/mj/task/') && rateLimited.count > 0) {
      rateLimited.count -= 1;
      const tooMany = 'Too Many Requests';
      res.writeHead(429, { 'content-type': 'text/plain', 'content-length': tooMany.length, 'retry-after': rateLimited.retryAfter });
      res.end(tooMany);
      return;
    }
    if (path === '/mj/task/list-by-condition') {
      if (method !== 'POST') return methodNotAllowed(res, path);
      const ids = Array.isArray(json.ids) ? json.ids.filter((id): id is string => typeof id === 'string') : [];
      return sendJson(
        res,
        200,
        ids.map((id) => recordOf(id)).filter((record) => record !== undefined),
      );
    }
    const taskRoute = /^\/mj\/task\/([^/]+)\/(fetch|image-seed)$/.exec(path);
    if (taskRoute) {
      if (method !== 'GET') return methodNotAllowed(res, path);
      const id = decodeURIComponent(taskRoute[1]);
      if (taskRoute[2] === 'fetch') {
        const record = recordOf(id);
        if (!record) {
          // The proxy's controller returns null: an empty 200.
          res.writeHead(200, { 'content-length': 0 });
          res.end();
          return;
        }
        return sendJson(res, 200, record);
      }
      return serveSeed(res, id);
    }
    return notFound(res, path);
  }

  function submitTask(route: string, body: Record<string, unknown>): Record<string, unknown> {
    const injected = submitCodes.shift();
    if (injected && ![1, 21, 22].includes(injected.code)) {
      const answer: Record<string, unknown> = { code: injected.code, description: injected.description ?? DESCRIPTIONS[injected.code] ?? 'Unknown error' };
      if (injected.code === 24) answer.properties = { promptEn: body.prompt ?? '', bannedWord: bannedWords[0] };
      return answer;
    }
    const created = createTask(route, body);
    if (!('id' in created)) return created;
    const code = injected?.code ?? created.code;
    const properties: Record<string, unknown> = { discordInstanceId: 'fake-instance-1' };
    if (code === 22) properties.numberOfQueues = 1;
    return { code, description: injected?.description ?? DESCRIPTIONS[code], result: created.id, properties };
  }

  /** A new task (or the existing one, code 21), or the refusal answer. */
  function createTask(
    route: string,
    body: Record<string, unknown>,
  ): { id: string; code: number } | { code: number; description: string; properties?: unknown } {
    const refuse = (description: string) => ({ code: 4, description });
    let action: FakeMjAction;
    let prompt = '';
    let parent: FakeMjTask | undefined;
    let customId: string | undefined;
    switch (route) {
      case 'imagine': {
        if (typeof body.prompt !== 'string' || body.prompt.trim() === '') return refuse('prompt can not be empty');
        if (body.base64Array !== undefined && !validImages(body.base64Array, 0, 5)) return refuse('base64 format error');
        action = 'IMAGINE';
        prompt = body.prompt;
        const banned = bannedWords.find((word) => prompt.toLowerCase().includes(word));
        if (banned) return { code: 24, description: DESCRIPTIONS[24], properties: { promptEn: prompt, bannedWord: banned } };
        break;
      }
      case 'blend':
        if (!validImages(body.base64Array, 2, 5)) return refuse('base64List parameter error');
        if (body.dimensions !== undefined && !DIMENSIONS.includes(body.dimensions as string)) return refuse('dimensions parameter error');
        action = 'BLEND';
        break;
      case 'describe':
        if (typeof body.base64 !== 'string' || !DATA_URL.test(body.base64)) return refuse('base64 format error');
        action = 'DESCRIBE';
        break;
      default: {
        if (typeof body.taskId !== 'string' || typeof body.customId !== 'string') return refuse('taskId and customId can not be empty');
        parent = tasks.get(body.taskId);
        if (!parent) return { code: 3, description: DESCRIPTIONS[3] };
        if (statusAt(parent, now()) !== 'SUCCESS') return refuse('Related task status error');
        customId = body.customId;
        if (!buttonsOf(parent).some((button) => button.customId === customId)) return refuse('customId is not a button of the task');
        const kind = actionOf(customId);
        if (!kind) return refuse(`unsupported action ${customId}`);
        if (kind === 'UPSCALE') {
          const existing = [...tasks.values()].find((task) => task.parentId === parent!.id && task.customId === customId);
          if (existing) return { id: existing.id, code: 21 };
        }
        action = kind;
        prompt = kind === 'IMAGINE' ? describedOption(parent, customId) : parent.prompt;
      }
    }
    counter += 1;
    const task: FakeMjTask = {
      id: String(idBase + counter),
      action,
      prompt,
      hash: randomBytes(16).toString('hex'),
      seed: String(1_000_000_000 + Math.floor(Math.random() * 1_000_000_000)),
      submittedAt: now(),
      taskMs,
      parentId: parent?.id,
      customId,
      notifyHook: body.notifyHook,
      state: body.state,
    };
    if (action === 'DESCRIBE') {
      task.described = [1, 2, 3, 4].map((n) => `${['1️⃣', '2️⃣', '3️⃣', '4️⃣'][n - 1]} a fake described image, option ${n} --ar 1:1`).join('\n\n');
    }
    if (nextFailure !== undefined) {
      task.failReason = nextFailure;
      nextFailure = undefined;
    }
    tasks.set(task.id, task);
    return { id: task.id, code: 1 };
  }

  function statusAt(task: FakeMjTask, at: number): string {
    if (task.forcedStatus) return task.forcedStatus;
    const elapsed = at - task.submittedAt;
    if (elapsed >= task.taskMs) return task.failReason === undefined ? 'SUCCESS' : 'FAILURE';
    if (elapsed < task.taskMs * 0.1) return 'NOT_START';
    if (elapsed < task.taskMs * 0.2) return 'SUBMITTED';
    return 'IN_PROGRESS';
  }

  function recordOf(id: string): Record<string, unknown> | undefined {
    const task = tasks.get(id);
    if (!task) return undefined;
    const at = now();
    const status = statusAt(task, at);
    const startTime = task.submittedAt + Math.round(task.taskMs * 0.2);
    const finishTime = task.submittedAt + task.taskMs;
    const properties: Record<string, unknown> = { discordInstanceId: 'fake-instance-1' };
    if (task.notifyHook !== undefined) properties.notifyHook = task.notifyHook;
    const record: Record<string, unknown> = {
      id: task.id,
      action: task.action,
      prompt: task.prompt,
      promptEn: task.prompt,
      description: 'Submit success',
      submitTime: task.submittedAt,
      status,
      progress: '0%',
      properties,
      buttons: [],
    };
    if (task.state !== undefined) record.state = task.state;
    if (status === 'IN_PROGRESS' || (task.forcedStatus && at >= startTime)) {
      const share = (at - startTime) / Math.max(1, finishTime - startTime);
      record.startTime = startTime;
      record.progress = `${Math.max(0, Math.min(99, Math.floor(share * 100)))}%`;
      record.imageUrl = `${base}/attachments/${task.id}.png`;
    }
    if (status === 'SUCCESS') {
      Object.assign(record, { startTime, finishTime, progress: '100%', imageUrl: `${base}/attachments/${task.id}.png`, buttons: buttonsOf(task) });
      properties.messageHash = task.hash;
      if (task.described) {
        record.prompt = task.described;
        record.promptEn = task.described;
        properties.finalPrompt = task.described;
      }
    }
    if (status === 'FAILURE') {
      Object.assign(record, { startTime, finishTime, progress: '', failReason: task.failReason ?? 'fake failure' });
      delete record.imageUrl;
    }
    return record;
  }

  function serveAttachment(res: ServerResponse, id: string): void {
    const task = tasks.get(id);
    const at = now();
    const status = task ? statusAt(task, at) : undefined;
    const finished = task ? task.submittedAt + task.taskMs : 0;
    const available = task && (status === 'IN_PROGRESS' || status === 'SUCCESS') && !expired.has(id) && !(status === 'SUCCESS' && at >= finished + resultTtlMs);
    if (!task || !available) {
      res.writeHead(404, { 'content-type': 'text/plain', 'content-length': 9 });
      res.end('Not Found');
      return;
    }
    const png = task.action === 'UPSCALE' ? upscalePng : gridPng;
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  }

  function serveSeed(res: ServerResponse, id: string): void {
    const task = tasks.get(id);
    if (seedFault === 500) return sendJson(res, 500, { timestamp: now(), status: 500, error: 'Internal Server Error', path: `/mj/task/${id}/image-seed` });
    if (!task || seedFault === 404) return sendJson(res, 404, { code: 3, description: 'Task not found' });
    if (seedFault === 400 || statusAt(task, now()) !== 'SUCCESS' || task.action === 'DESCRIBE')
      return sendJson(res, 400, { code: 4, description: 'The task has no image yet' });
    sendJson(res, 200, { code: 1, description: 'success', result: task.seed });
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    tasks,
    now,
    setNow: (next) => {
      clock = next;
      offset = 0;
    },
    advance: (ms) => {
      offset += ms;
    },
    setTaskMs: (ms) => {
      taskMs = ms;
    },
    nextSubmitCode: (code, description) => {
      submitCodes.push({ code, description });
    },
    rateLimitPolls: (count, retryAfter) => {
      rateLimited = { count, retryAfter };
    },
    failNextTask: (reason) => {
      nextFailure = reason;
    },
    forceStatus: (id, status) => {
      const task = tasks.get(id);
      if (!task) throw new Error(`the fake MJ proxy has no task ${id}`);
      task.forcedStatus = status;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    setAttachmentDelay: (ms) => {
      attachmentDelayMs = ms;
    },
    onAnswer: (listener) => {
      answerListeners.add(listener);
      return () => answerListeners.delete(listener);
    },
    setSeedFault: (status) => {
      seedFault = status;
    },
    expireResults: () => {
      for (const id of tasks.keys()) expired.add(id);
    },
    record: recordOf,
    submits: () => requests.filter((request) => request.path.startsWith('/mj/submit/')),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await closeServer(server);
    },
  };
}

interface FakeButton {
  customId: string;
  emoji: string;
  label: string;
  type: number;
  style: number;
}

function buttonsOf(task: FakeMjTask): FakeButton[] {
  const button = (customId: string, label: string, emoji = ''): FakeButton => ({ customId, emoji, label, type: 2, style: 2 });
  if (GRID_ACTIONS.has(task.action)) {
    return [
      ...[1, 2, 3, 4].map((n) => button(`MJ::JOB::upsample::${n}::${task.hash}`, `U${n}`)),
      button(`MJ::JOB::reroll::0::${task.hash}::SOLO`, '', '🔄'),
      ...[1, 2, 3, 4].map((n) => button(`MJ::JOB::variation::${n}::${task.hash}`, `V${n}`)),
    ];
  }
  if (task.action === 'UPSCALE') {
    return [
      button(`MJ::JOB::upsample_v6_2x_subtle::1::${task.hash}::SOLO`, 'Upscale (Subtle)'),
      button(`MJ::JOB::upsample_v6_2x_creative::1::${task.hash}::SOLO`, 'Upscale (Creative)'),
      button(`MJ::JOB::high_variation::1::${task.hash}::SOLO`, 'Vary (Strong)', '🪄'),
      button(`MJ::JOB::low_variation::1::${task.hash}::SOLO`, 'Vary (Subtle)', '🪄'),
    ];
  }
  return [...['1️⃣', '2️⃣', '3️⃣', '4️⃣'].map((emoji, i) => button(`MJ::Job::PicReader::${i + 1}`, '', emoji)), button('MJ::Picread::Retry', '', '🔄')];
}

/** The task a button makes: upsample → UPSCALE, variation → VARIATION, reroll → REROLL, a describe's pick → IMAGINE. */
function actionOf(customId: string): FakeMjAction | undefined {
  if (/^MJ::JOB::upsample(_v6_2x_\w+)?::\d::/.test(customId)) return 'UPSCALE';
  if (/^MJ::JOB::(variation|high_variation|low_variation)::\d::/.test(customId)) return 'VARIATION';
  if (customId.startsWith('MJ::JOB::reroll::')) return 'REROLL';
  if (/^MJ::Job::PicReader::\d$/.test(customId)) return 'IMAGINE';
  if (customId === 'MJ::Picread::Retry') return 'DESCRIBE';
  return undefined;
}

function describedOption(parent: FakeMjTask, customId: string): string {
  const index = Number(customId.slice(customId.lastIndexOf('::') + 2)) - 1;
  return (parent.described ?? '').split('\n\n')[index]?.replace(/^\S+\s/, '') ?? '';
}

function validImages(value: unknown, min: number, max: number): boolean {
  return Array.isArray(value) && value.length >= min && value.length <= max && value.every((entry) => typeof entry === 'string' && DATA_URL.test(entry));
}

function notFound(res: ServerResponse, path: string): void {
  sendJson(res, 404, { timestamp: Date.now(), status: 404, error: 'Not Found', path });
}

function methodNotAllowed(res: ServerResponse, path: string): void {
  sendJson(res, 405, { timestamp: Date.now(), status: 405, error: 'Method Not Allowed', path });
}

/** Long strings (images) shortened, so recorded traffic stays small and readable. */
function summarize(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= 120) return value;
    const head = /^data:[^;,]+;base64,/.exec(value)?.[0] ?? '';
    return `${head}<${value.length - head.length} chars>`;
  }
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((entry) => summarize(entry, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, summarize(entry, depth + 1)]));
}
