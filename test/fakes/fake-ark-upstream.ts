/**
 * A fake Volcengine Ark API (content generation tasks, Seedance video) on a real `node:http`
 * server, following the published wire format: Bearer key; `POST /api/v3/contents/generations/
 * tasks {model, content:[{type:"text", text:"prompt --resolution 720p --ratio 16:9 --duration 5"},
 * {type:"image_url", image_url:{url}, role}], callback_url?}` → `{id:"cgt-…"}`; `GET …/tasks/{id}`
 * → the task record `{id, model, status, content:{video_url}, usage:{completion_tokens,
 * total_tokens}, seed, resolution, ratio, duration, framespersecond, created_at, updated_at (unix
 * s), error}`; `GET …/tasks?page_num&page_size&filter.status&filter.task_ids=…&filter.task_ids=…`
 * → `{items, total}`; `DELETE …/tasks/{id}` cancels a queued task (status `cancelled`), deletes a
 * finished one, and is refused for a running one. Errors are `{error:{code, message}}` with the
 * HTTP status (400 `InvalidParameter`, 401 `AuthenticationError`, 404 for an unknown model or
 * task, 429 `RateLimitExceeded…` with Retry-After, content checks as 400
 * `InputTextSensitiveContentDetected` or a task failed with `OutputVideoSensitiveContentDetected`).
 * The code answered to a running task's DELETE and to an unknown task id are this fake's guesses.
 *
 * What the fake checks like Ark does: the model exists, t2v models take no image and i2v models
 * need one, image roles (one first frame; first + last; 1–4 reference images; pro takes only a
 * first frame), data URLs in lowercase `data:image/<format>;base64,`, text commands and their
 * values per model (durations, resolutions, ratios, seed), a setting given twice (refused here,
 * which Ark may not do: it keeps the gateway honest). The prompt words `forbidden-input` (refused
 * at create) and `forbidden-output` (the task fails on its output) trigger the content checks.
 *
 * For task tests: the clock is settable (`now`, `advance`; real time by default); tasks are
 * `queued` for `queuedMs`, `running` for `runningMs`, then `succeeded` with a video served by the
 * fake itself (small MP4 bytes, `fakeArkVideoBytes`) behind a signed URL that answers 403 after
 * `videoTtlMs` (24 h, as Ark's) or `expireVideos()`. `failNextCreate`, `dropNextCreate` (the task
 * is created, the answer lost), `failNextTask`, `throttleGets`, `cancelUpstream` and `setStatus`
 * inject the rest. Callbacks are recorded in the task, never delivered.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, readBody, sendJson } from './fake-http.js';

export const FAKE_ARK_KEY = 'ark-fake-upstream-key-0001';
const TASKS_PATH = '/api/v3/contents/generations/tasks';
const DEFAULT_QUEUED_MS = 1_000;
const DEFAULT_RUNNING_MS = 4_000;
/** Ark cleans generated videos up after 24 hours. */
const DEFAULT_VIDEO_TTL_MS = 24 * 60 * 60_000;
const FPS = 24;

type ModelKind = 't2v' | 'i2v' | 'pro';
interface FakeModel {
  kind: ModelKind;
  durations: [number, number];
  defaultResolution: string;
  resolutions: string[];
}
const MODELS: Record<string, FakeModel> = {
  'doubao-seedance-1-0-lite-t2v-250428': { kind: 't2v', durations: [2, 12], defaultResolution: '720p', resolutions: ['480p', '720p', '1080p'] },
  'doubao-seedance-1-0-lite-i2v-250428': { kind: 'i2v', durations: [2, 12], defaultResolution: '720p', resolutions: ['480p', '720p', '1080p'] },
  'doubao-seedance-1-0-pro-250528': { kind: 'pro', durations: [2, 12], defaultResolution: '1080p', resolutions: ['480p', '720p', '1080p'] },
  'doubao-seedance-1-0-pro-fast-251015': { kind: 'pro', durations: [2, 12], defaultResolution: '1080p', resolutions: ['480p', '720p', '1080p'] },
};
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
/** Ark's pixel sizes for Seedance 1.0 (resolution → ratio → width × height). */
const SIZES: Record<string, Record<string, [number, number]>> = {
  '480p': { '16:9': [864, 480], '4:3': [736, 544], '1:1': [640, 640], '3:4': [544, 736], '9:16': [480, 864], '21:9': [960, 416] },
  '720p': { '16:9': [1248, 704], '4:3': [1120, 832], '1:1': [960, 960], '3:4': [832, 1120], '9:16': [704, 1248], '21:9': [1504, 640] },
  '1080p': { '16:9': [1920, 1088], '4:3': [1664, 1248], '1:1': [1440, 1440], '3:4': [1248, 1664], '9:16': [1088, 1920], '21:9': [2176, 928] },
};
const COMMAND_NAMES: Record<string, string> = {
  resolution: 'resolution',
  rs: 'resolution',
  ratio: 'ratio',
  rt: 'ratio',
  duration: 'duration',
  dur: 'duration',
  framespersecond: 'framespersecond',
  fps: 'framespersecond',
  seed: 'seed',
  camerafixed: 'camerafixed',
  cf: 'camerafixed',
  watermark: 'watermark',
  wm: 'watermark',
};
const ROLES = ['first_frame', 'last_frame', 'reference_image'];

export interface ArkRecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakeArkTask {
  id: string;
  model: string;
  prompt: string;
  commands: Record<string, string>;
  images: Array<{ url: string; role: string }>;
  resolution: string;
  ratio: string;
  duration: number;
  seed: number;
  createdAt: number;
  callbackUrl?: string;
  /** Set by `failNextTask` or the `forbidden-output` prompt: the task fails with this error. */
  failure?: { code: string; message: string };
  cancelledAt?: number;
  /** Set by `setStatus`: the status the fake answers whatever the clock says. */
  statusOverride?: string;
  deleted?: boolean;
  videoExpired?: boolean;
  signature: string;
}

export interface InjectedError {
  status: number;
  code: string;
  message: string;
  retryAfter?: number;
}

export interface FakeArkUpstreamOptions {
  queuedMs?: number;
  runningMs?: number;
  videoTtlMs?: number;
  /** The clock states follow (default real time); `advance` moves it on. */
  now?: () => number;
}

export interface FakeArkUpstream {
  /** The host, as a channel's baseUrl (routes are under `/api/v3`). */
  url: string;
  requests: ArkRecordedRequest[];
  tasks: Map<string, FakeArkTask>;
  /** Ids a client's DELETE cancelled (queued) or deleted (finished). */
  cancelled: string[];
  deleted: string[];
  now(): number;
  advance(ms: number): void;
  /** Every video made so far answers 403 from now on. */
  expireVideos(): void;
  /** The next create answers this error (nothing is created). */
  failNextCreate(error: InjectedError): void;
  /** The next create makes the task, then the connection is cut before the answer. */
  dropNextCreate(): void;
  /** The next task created fails with this error once it has run. */
  failNextTask(code: string, message: string): void;
  /** The next `count` reads (one task or the list) answer 429 with `Retry-After`. */
  throttleGets(count: number, retryAfterSeconds: number): void;
  /** Ark cancels a task on its own side (from the console, say). */
  cancelUpstream(id: string): void;
  /** The task answers this status from now on (e.g. one the gateway does not know). */
  setStatus(id: string, status: string): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

export async function startFakeArkUpstream(options: FakeArkUpstreamOptions = {}): Promise<FakeArkUpstream> {
  const queuedMs = options.queuedMs ?? DEFAULT_QUEUED_MS;
  const runningMs = options.runningMs ?? DEFAULT_RUNNING_MS;
  const videoTtlMs = options.videoTtlMs ?? DEFAULT_VIDEO_TTL_MS;
  const clock = options.now ?? Date.now;
  let offsetMs = 0;
  const now = () => clock() + offsetMs;
  const requests: ArkRecordedRequest[] = [];
  const tasks = new Map<string, FakeArkTask>();
  const cancelled: string[] = [];
  const deleted: string[] = [];
  let counter = 0;
  const instance = randomBytes(3).toString('hex');
  let base = '';
  let nextCreateError: InjectedError | undefined;
  let dropCreate = false;
  let nextTaskFailure: { code: string; message: string } | undefined;
  let throttled = { count: 0, retryAfterSeconds: 1 };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'InternalServiceError', `The service encountered an unexpected internal error: ${String(error)}`);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const url = new URL(req.url ?? '/', base);
    let body: Json | undefined;
    try {
      body = text.length > 0 ? (JSON.parse(text) as Json) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body });

    // The object store's signed URLs need no key.
    const video = /^\/tos\/([\w-]+)\.mp4$/.exec(url.pathname);
    if (req.method === 'GET' && video) return serveVideo(res, tasks.get(video[1]), url.searchParams.get('X-Tos-Signature'));

    if (req.headers.authorization !== `Bearer ${FAKE_ARK_KEY}`) {
      return sendError(res, 401, 'AuthenticationError', 'The API key or AK/SK in the request is missing or invalid.');
    }
    if (url.pathname === TASKS_PATH && req.method === 'POST') return create(req, res, text, body);
    if (url.pathname === TASKS_PATH && req.method === 'GET') {
      if (throttle(res)) return;
      return list(res, url.searchParams);
    }
    const one = new RegExp(`^${TASKS_PATH}/([^/]+)$`).exec(url.pathname);
    if (one && req.method === 'GET') {
      if (throttle(res)) return;
      const task = live(decodeURIComponent(one[1]));
      return task ? sendJson(res, 200, view(task)) : sendError(res, 404, 'ResourceNotFound', 'The specified task is not found.');
    }
    if (one && req.method === 'DELETE') return remove(res, decodeURIComponent(one[1]));
    sendError(res, 404, 'NotFound', 'The requested resource is not found.');
  }

  function throttle(res: ServerResponse): boolean {
    if (throttled.count <= 0) return false;
    throttled.count--;
    sendError(res, 429, 'RateLimitExceeded.EndpointRPMExceeded', 'The request has exceeded the RPM rate limit of the endpoint.', {
      'retry-after': String(throttled.retryAfterSeconds),
    });
    return true;
  }

  function create(req: IncomingMessage, res: ServerResponse, text: string, body: Json | undefined): void {
    if (nextCreateError) {
      const { status, code, message, retryAfter } = nextCreateError;
      nextCreateError = undefined;
      return sendError(res, status, code, message, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
    }
    if (!body) return invalid(res, 'body', `the request body is not valid JSON (${text.length} bytes)`);
    const model = typeof body.model === 'string' ? body.model : '';
    const spec = MODELS[model];
    if (!spec) {
      return sendError(
        res,
        404,
        'InvalidEndpointOrModel.NotFound',
        `The model or endpoint ${model.slice(0, 80)} does not exist or you do not have access to it.`,
      );
    }
    const parsed = parseContent(body.content, spec);
    if (typeof parsed === 'string') return invalid(res, 'content', parsed);
    if (body.callback_url !== undefined && (typeof body.callback_url !== 'string' || !/^https?:\/\//.test(body.callback_url))) {
      return invalid(res, 'callback_url', 'callback_url must be an http(s) URL');
    }
    if (parsed.prompt.includes('forbidden-input')) {
      return sendError(res, 400, 'InputTextSensitiveContentDetected', 'The request failed because the input text may contain sensitive information.');
    }
    const settings = settle(parsed.commands, spec, parsed.images);
    if (typeof settings === 'string') return invalid(res, 'content', settings);

    const n = ++counter;
    const created = now();
    const stamp = new Date(created).toISOString().replace(/\D/g, '').slice(0, 14);
    const id = `cgt-${stamp}-${instance}${String(n).padStart(4, '0')}`;
    const task: FakeArkTask = {
      id,
      model,
      prompt: parsed.prompt,
      commands: parsed.commands,
      images: parsed.images,
      ...settings,
      createdAt: created,
      callbackUrl: body.callback_url as string | undefined,
      failure: parsed.prompt.includes('forbidden-output')
        ? { code: 'OutputVideoSensitiveContentDetected', message: 'The request failed because the output video may contain sensitive information.' }
        : nextTaskFailure,
      signature: randomBytes(16).toString('hex'),
    };
    nextTaskFailure = undefined;
    tasks.set(id, task);
    if (dropCreate) {
      dropCreate = false;
      req.socket.destroy();
      return;
    }
    sendJson(res, 200, { id });
  }

  function list(res: ServerResponse, query: URLSearchParams): void {
    const pageNum = Number(query.get('page_num') ?? '1');
    const pageSize = Number(query.get('page_size') ?? '10');
    if (!Number.isInteger(pageNum) || pageNum < 1 || pageNum > 500) return invalid(res, 'page_num', 'page_num must be from 1 to 500');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 500) return invalid(res, 'page_size', 'page_size must be from 1 to 500');
    const ids = query.getAll('filter.task_ids');
    const status = query.get('filter.status');
    const matching = [...tasks.values()]
      .filter((task) => !task.deleted && (ids.length === 0 || ids.includes(task.id)) && (!status || statusOf(task) === status))
      .sort((a, b) => b.createdAt - a.createdAt);
    const items = matching.slice((pageNum - 1) * pageSize, pageNum * pageSize).map(view);
    sendJson(res, 200, { total: matching.length, items });
  }

  function remove(res: ServerResponse, id: string): void {
    const task = live(id);
    if (!task) return sendError(res, 404, 'ResourceNotFound', 'The specified task is not found.');
    const status = statusOf(task);
    if (status === 'queued') {
      task.cancelledAt = now();
      cancelled.push(id);
    } else if (status === 'running') {
      return sendError(res, 400, 'InvalidParameter', 'The specified task is running and cannot be cancelled; only queued tasks can be.');
    } else {
      task.deleted = true;
      deleted.push(id);
    }
    sendJson(res, 200, {});
  }

  function live(id: string): FakeArkTask | undefined {
    const task = tasks.get(id);
    return task && !task.deleted ? task : undefined;
  }

  function statusOf(task: FakeArkTask): string {
    if (task.statusOverride) return task.statusOverride;
    if (task.cancelledAt !== undefined) return 'cancelled';
    const age = now() - task.createdAt;
    if (age < queuedMs) return 'queued';
    if (age < queuedMs + runningMs) return 'running';
    return task.failure ? 'failed' : 'succeeded';
  }

  function updatedAt(task: FakeArkTask, status: string): number {
    if (task.cancelledAt !== undefined) return task.cancelledAt;
    if (status === 'queued') return task.createdAt;
    if (status === 'running') return task.createdAt + queuedMs;
    return task.createdAt + queuedMs + runningMs;
  }

  function view(task: FakeArkTask): Json {
    const status = statusOf(task);
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const record: Json = {
      id: task.id,
      model: task.model,
      status,
      error: status === 'failed' ? task.failure : null,
      created_at: seconds(task.createdAt),
      updated_at: seconds(updatedAt(task, status)),
      seed: task.seed,
      resolution: task.resolution,
      ratio: task.ratio,
      duration: task.duration,
      framespersecond: FPS,
    };
    if (status === 'succeeded') {
      const [width, height] = SIZES[task.resolution][task.ratio];
      const tokens = Math.floor((width * height * FPS * task.duration) / 1024);
      record.content = { video_url: `${base}/tos/${task.id}.mp4?X-Tos-Expires=${Math.floor(videoTtlMs / 1000)}&X-Tos-Signature=${task.signature}` };
      record.usage = { completion_tokens: tokens, total_tokens: tokens };
    }
    return record;
  }

  function serveVideo(res: ServerResponse, task: FakeArkTask | undefined, signature: string | null): void {
    const available =
      task !== undefined &&
      signature === task.signature &&
      statusOf(task) === 'succeeded' &&
      !task.videoExpired &&
      now() <= updatedAt(task, 'succeeded') + videoTtlMs;
    if (!available) {
      const xml = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>';
      res.writeHead(403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
      res.end(xml);
      return;
    }
    const bytes = fakeArkVideoBytes(task.id);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length });
    res.end(bytes);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    tasks,
    cancelled,
    deleted,
    now,
    advance(ms) {
      offsetMs += ms;
    },
    expireVideos() {
      for (const task of tasks.values()) task.videoExpired = true;
    },
    failNextCreate(error) {
      nextCreateError = error;
    },
    dropNextCreate() {
      dropCreate = true;
    },
    failNextTask(code, message) {
      nextTaskFailure = { code, message };
    },
    throttleGets(count, retryAfterSeconds) {
      throttled = { count, retryAfterSeconds };
    },
    cancelUpstream(id) {
      const task = tasks.get(id);
      if (task) task.cancelledAt = now();
    },
    setStatus(id, status) {
      const task = tasks.get(id);
      if (task) task.statusOverride = status;
    },
    close: () => closeServer(server),
  };
}

/** A channel pointing at the fake, polling every 20 ms. */
export function fakeArkChannel(upstream: FakeArkUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return {
    name: 'fake-ark',
    provider: 'ark',
    baseUrl: upstream.url,
    apiKey: FAKE_ARK_KEY,
    headers: {},
    timeoutMs: 5_000,
    options: { pollIntervalMs: 20 },
    ...overrides,
  };
}

/**
 * The video a task makes: an MP4 `ftyp` box (bytes 4–7 are `ftyp`, as sniffers check) and a
 * `free` box naming the task, so every task's bytes differ.
 */
export function fakeArkVideoBytes(taskId: string): Buffer {
  const ftyp = Buffer.concat([u32(24), Buffer.from('ftypisom'), u32(0x200), Buffer.from('isommp41')]);
  const payload = Buffer.from(`fake seedance video ${taskId} ${createHash('sha256').update(taskId).digest('hex')}`);
  return Buffer.concat([ftyp, u32(8 + payload.length), Buffer.from('free'), payload]);
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

interface ParsedContent {
  prompt: string;
  commands: Record<string, string>;
  images: Array<{ url: string; role: string }>;
}

/** The content array as Ark reads it, or what is wrong with it. */
function parseContent(content: unknown, spec: FakeModel): ParsedContent | string {
  if (!Array.isArray(content) || content.length === 0 || content.length > 10) return 'content must be a list of 1 to 10 items';
  let text: string | undefined;
  const images: Array<{ url: string; role: string | undefined }> = [];
  for (const item of content as Json[]) {
    if (item?.type === 'text') {
      if (text !== undefined) return 'content takes one text item';
      if (typeof item.text !== 'string') return 'content.text must be a string';
      text = item.text;
    } else if (item?.type === 'image_url') {
      const url = (item.image_url as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string' || !(/^data:image\/(jpeg|png|webp|bmp|tiff|gif);base64,[A-Za-z0-9+/]+=*$/.test(url) || /^https?:\/\//.test(url))) {
        return 'content.image_url.url must be an http(s) URL or data:image/<format>;base64,<data> with a lowercase format';
      }
      if (item.role !== undefined && !ROLES.includes(item.role as string)) return `content.role ${String(item.role)} is not one of ${ROLES.join(', ')}`;
      images.push({ url, role: item.role as string | undefined });
    } else {
      return 'content.type must be text or image_url';
    }
  }
  const commands: Record<string, string> = {};
  let duplicate: string | undefined;
  const prompt = (text ?? '')
    .replace(/(^|\s)--([A-Za-z]+)\s+(\S+)/g, (whole, _lead: string, name: string, value: string) => {
      const key = COMMAND_NAMES[name.toLowerCase()];
      if (!key) return whole;
      if (key in commands) duplicate = key;
      commands[key] = value;
      return '';
    })
    .trim();
  if (duplicate) return `the parameter ${duplicate} is given twice`;
  if (spec.kind === 't2v' && images.length > 0) return 'this model generates video from text only';
  if (spec.kind === 'i2v' && images.length === 0) return 'this model needs an image';
  if (images.length === 0 && prompt === '') return 'a text prompt is required';
  const roles = images.map((image) => image.role);
  const count = (role: string) => roles.filter((r) => r === role).length;
  const oneFirst = images.length === 1 && (roles[0] === undefined || roles[0] === 'first_frame');
  const firstAndLast = images.length === 2 && count('first_frame') === 1 && count('last_frame') === 1;
  const references = images.length >= 1 && images.length <= 4 && count('reference_image') === images.length;
  if (images.length > 0 && !(oneFirst || (spec.kind === 'i2v' && (firstAndLast || references)))) {
    return `the image roles ${roles.map(String).join(', ')} are not supported by this model`;
  }
  return { prompt, commands, images: images.map((image) => ({ url: image.url, role: image.role ?? 'first_frame' })) };
}

/** The settings the task runs with, from its text commands and the model's defaults, or what is wrong. */
function settle(
  commands: Record<string, string>,
  spec: FakeModel,
  images: Array<{ role: string }>,
): Pick<FakeArkTask, 'resolution' | 'ratio' | 'duration' | 'seed'> | string {
  const resolution = commands.resolution ?? spec.defaultResolution;
  if (!spec.resolutions.includes(resolution)) return `resolution ${resolution} is not supported by this model`;
  if (resolution === '1080p' && images.some((image) => image.role === 'reference_image')) return 'resolution 1080p is not supported with reference images';
  const ratio = commands.ratio ?? (images.length > 0 ? 'adaptive' : '16:9');
  if (!RATIOS.includes(ratio)) return `ratio ${ratio} is not supported`;
  const duration = Number(commands.duration ?? '5');
  if (!Number.isInteger(duration) || duration < spec.durations[0] || duration > spec.durations[1])
    return `duration ${commands.duration} is not supported by this model`;
  const seed = Number(commands.seed ?? '-1');
  if (!Number.isInteger(seed) || seed < -1 || seed > 2 ** 32 - 1) return `seed ${commands.seed} is out of range`;
  for (const flag of ['camerafixed', 'watermark']) {
    if (commands[flag] !== undefined && commands[flag] !== 'true' && commands[flag] !== 'false') return `${flag} must be true or false`;
  }
  // `adaptive` follows the image; the fake's images are all landscape.
  return { resolution, ratio: ratio === 'adaptive' ? '16:9' : ratio, duration, seed: seed === -1 ? 1000 + Math.floor(Math.random() * 9000) : seed };
}

function invalid(res: ServerResponse, param: string, why: string): void {
  sendError(
    res,
    400,
    'InvalidParameter',
    `The parameter \`${param}\` specified in the request is not valid: ${why}. Request id: ${randomBytes(8).toString('hex')}`,
  );
}

function sendError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { code, message, param: '', type: status === 429 ? 'TooManyRequests' : 'BadRequest' } }, headers);
}
