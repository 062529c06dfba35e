/**
 * A fake Luma Dream Machine API on a real `node:http` server, following the published wire
 * format (the official SDK's routes and types): Bearer key; `POST /dream-machine/v1/generations/video
 * {prompt, model, resolution, duration, aspect_ratio, keyframes:{frame0,frame1:{type:"image",url}},
 * loop, callback_url}` answering 201 with a generation `{id (UUID), generation_type:"video",
 * state, failure_reason, created_at, assets, model, request}`; `GET /dream-machine/v1/generations/{id}`;
 * `DELETE /dream-machine/v1/generations/{id}` (204; the generation is gone afterwards). Errors are
 * `{detail}`: a string (400, 401, 404, 429, 5xx) or FastAPI's list of `{loc, msg, type}` (422).
 *
 * Generations follow a settable clock (`advance`): queued for `queuedMs`, dreaming until
 * `processingMs`, then completed with `assets.video` served by the fake itself (a tiny MP4,
 * `fakeVideoBytes(id)`), which answers 404 after `outputTtlMs` or `expireOutputs()`. A generation
 * with a `callback_url` gets the generation POSTed there on dreaming, completed and failed (as
 * Luma does; unsigned). Injectable: `failNextGeneration` (ends failed with that reason),
 * `failCreates` (5xx, nothing created), `throttleReads` (429 with Retry-After), `hangNextCreate`
 * (accepts the generation, never answers: a lost submit answer).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, readBody, sendJson } from './fake-http.js';
import { fakeVideoBytes } from './fake-video-bytes.js';

export const FAKE_LUMA_KEY = 'luma-fakeUpstreamKey0123456789';
const MODELS = ['ray-2', 'ray-flash-2', 'ray-1-6'];
const RESOLUTIONS = ['540p', '720p', '1080p', '4k'];
const DURATIONS = ['5s', '9s'];
const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'];
/** Luma's asset URLs are signed and short-lived. */
const DEFAULT_OUTPUT_TTL_MS = 60 * 60_000;

type Json = Record<string, unknown>;

export interface LumaRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json | undefined;
}

export interface FakeLumaGeneration {
  id: string;
  request: Json;
  createdAt: number;
  failure?: string;
  deleted?: boolean;
  outputsExpired?: boolean;
  /** Callback states already delivered. */
  called: Set<string>;
}

export interface LumaCallback {
  url: string;
  state: string;
  body: Json;
  status?: number;
  error?: string;
}

export interface FakeLumaUpstreamOptions {
  queuedMs?: number;
  /** From creation to completion (default 60 s: only `advance` moves a generation on). */
  processingMs?: number;
  outputTtlMs?: number;
}

export interface FakeLumaUpstream {
  /** Luma's host (as a channel's base URL). */
  url: string;
  requests: LumaRecordedRequest[];
  generations: Map<string, FakeLumaGeneration>;
  callbacks: LumaCallback[];
  now(): number;
  advance(ms: number): void;
  /** The bytes the fake serves for a generation's video. */
  videoBytes(id: string): Buffer;
  expireOutputs(): void;
  failNextGeneration(reason: string): void;
  failCreates(count: number, status?: number): void;
  throttleReads(count: number, retryAfterSeconds: number): void;
  /** The next create makes its generation, then never answers (the connection stays open until close). */
  hangNextCreate(): void;
  flushCallbacks(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeLumaUpstream(options: FakeLumaUpstreamOptions = {}): Promise<FakeLumaUpstream> {
  const queuedMs = options.queuedMs ?? 5_000;
  const processingMs = options.processingMs ?? 60_000;
  const outputTtlMs = options.outputTtlMs ?? DEFAULT_OUTPUT_TTL_MS;
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const requests: LumaRecordedRequest[] = [];
  const generations = new Map<string, FakeLumaGeneration>();
  const callbacks: LumaCallback[] = [];
  const pending = new Set<Promise<void>>();
  const hanging = new Set<ServerResponse>();
  let base = '';
  let nextFailure: string | undefined;
  let failing = { count: 0, status: 500 };
  let throttled = { count: 0, retryAfterSeconds: 1 };
  let hangNext = false;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { detail: `Internal server error: ${String(error)}` });
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

    // Asset URLs are signed CDN links: no key.
    const asset = /^\/assets\/([^/]+)\/video\.mp4$/.exec(path);
    if (req.method === 'GET' && asset) return serveVideo(res, asset[1]);

    if (req.headers.authorization !== `Bearer ${FAKE_LUMA_KEY}`) return sendJson(res, 401, { detail: 'Invalid API key provided' });

    if (req.method === 'POST' && path === '/dream-machine/v1/generations/video') {
      if (failing.count > 0) {
        failing.count--;
        return sendJson(res, failing.status, { detail: 'Internal server error' });
      }
      if (text.length > 0 && body === undefined) return sendJson(res, 400, { detail: 'Invalid JSON body' });
      return create(res, body ?? {});
    }
    const one = /^\/dream-machine\/v1\/generations\/([^/]+)$/.exec(path);
    if (one && req.method === 'GET') {
      if (throttled.count > 0) {
        throttled.count--;
        return sendJson(res, 429, { detail: 'Too many requests, please slow down' }, { 'retry-after': String(throttled.retryAfterSeconds) });
      }
      deliverDueCallbacks();
      const generation = generations.get(one[1]);
      return generation && !generation.deleted ? sendJson(res, 200, view(generation)) : sendJson(res, 404, { detail: 'Generation not found' });
    }
    if (one && req.method === 'DELETE') {
      const generation = generations.get(one[1]);
      if (!generation || generation.deleted) return sendJson(res, 404, { detail: 'Generation not found' });
      generation.deleted = true;
      res.writeHead(204).end();
      return;
    }
    sendJson(res, 404, { detail: 'Not Found' });
  }

  function create(res: ServerResponse, body: Json): void {
    const invalid = validate(body);
    if (invalid.length > 0) return sendJson(res, 422, { detail: invalid });
    if (typeof body.prompt === 'string' && body.prompt.includes('forbidden')) {
      return sendJson(res, 400, { detail: 'Prompt not allowed because advanced moderation failed' });
    }
    const generation: FakeLumaGeneration = { id: randomUUID(), request: body, createdAt: now(), failure: nextFailure, called: new Set() };
    nextFailure = undefined;
    generations.set(generation.id, generation);
    if (hangNext) {
      hangNext = false;
      hanging.add(res);
      return;
    }
    sendJson(res, 201, view(generation));
  }

  function validate(body: Json): Json[] {
    const problems: Json[] = [];
    const fail = (field: string, msg: string, type: string) => problems.push({ loc: ['body', ...field.split('.')], msg, type });
    if (typeof body.prompt !== 'string' || body.prompt.length === 0) fail('prompt', 'Field required', 'missing');
    if (!MODELS.includes(body.model as string)) fail('model', `Input should be ${MODELS.map((m) => `'${m}'`).join(', ')}`, 'enum');
    if (body.resolution !== undefined && !RESOLUTIONS.includes(body.resolution as string)) fail('resolution', 'Invalid resolution', 'value_error');
    if (body.duration !== undefined && !DURATIONS.includes(body.duration as string)) fail('duration', 'Invalid duration', 'value_error');
    if (body.aspect_ratio !== undefined && !ASPECT_RATIOS.includes(body.aspect_ratio as string)) fail('aspect_ratio', 'Invalid aspect ratio', 'enum');
    if (body.callback_url !== undefined && (typeof body.callback_url !== 'string' || !/^https?:\/\//.test(body.callback_url))) {
      fail('callback_url', 'Input should be a valid URL', 'url_parsing');
    }
    if (body.keyframes !== undefined) {
      const keyframes = body.keyframes as Json;
      if (keyframes === null || typeof keyframes !== 'object') fail('keyframes', 'Input should be a valid dictionary', 'dict_type');
      else
        for (const [name, frame] of Object.entries(keyframes)) {
          const { type, url } = (frame ?? {}) as Json;
          if (name !== 'frame0' && name !== 'frame1') fail(`keyframes.${name}`, 'Extra inputs are not permitted', 'extra_forbidden');
          else if (type !== 'image' || typeof url !== 'string' || !/^https?:\/\//.test(url)) fail(`keyframes.${name}`, 'Invalid image keyframe', 'value_error');
        }
    }
    return problems;
  }

  function stateOf(generation: FakeLumaGeneration): string {
    const age = now() - generation.createdAt;
    if (age < queuedMs) return 'queued';
    if (age < processingMs) return 'dreaming';
    return generation.failure === undefined ? 'completed' : 'failed';
  }

  function view(generation: FakeLumaGeneration): Json {
    const state = stateOf(generation);
    return {
      id: generation.id,
      generation_type: 'video',
      state,
      failure_reason: state === 'failed' ? generation.failure : null,
      created_at: new Date(generation.createdAt).toISOString(),
      assets: state === 'completed' ? { video: `${base}/assets/${generation.id}/video.mp4`, image: null, progress_video: null } : null,
      model: generation.request.model,
      request: { generation_type: 'video', ...generation.request },
    };
  }

  function serveVideo(res: ServerResponse, id: string): void {
    const generation = generations.get(id);
    const endedAt = generation ? generation.createdAt + processingMs : 0;
    if (!generation || generation.deleted || generation.outputsExpired || stateOf(generation) !== 'completed' || now() > endedAt + outputTtlMs) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const bytes = fakeVideoBytes(id);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': bytes.length }).end(bytes);
  }

  /** Luma posts the generation on dreaming, completed and failed. */
  function deliverDueCallbacks(): void {
    for (const generation of generations.values()) {
      const url = generation.request.callback_url;
      const state = stateOf(generation);
      if (typeof url !== 'string' || generation.deleted || state === 'queued' || generation.called.has(state)) continue;
      generation.called.add(state);
      const record: LumaCallback = { url, state, body: view(generation) };
      callbacks.push(record);
      const delivery = fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(record.body),
        signal: AbortSignal.timeout(5_000),
      })
        .then(async (response) => {
          await response.arrayBuffer();
          record.status = response.status;
        })
        .catch((error: unknown) => {
          record.error = String(error);
        });
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    generations,
    callbacks,
    now,
    advance(ms) {
      offsetMs += ms;
      deliverDueCallbacks();
    },
    videoBytes: fakeVideoBytes,
    expireOutputs() {
      for (const generation of generations.values()) generation.outputsExpired = true;
    },
    failNextGeneration(reason) {
      nextFailure = reason;
    },
    failCreates(count, status = 500) {
      failing = { count, status };
    },
    throttleReads(count, retryAfterSeconds) {
      throttled = { count, retryAfterSeconds };
    },
    hangNextCreate() {
      hangNext = true;
    },
    async flushCallbacks() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close() {
      for (const res of hanging) res.destroy();
      return closeServer(server);
    },
  };
}

/** A channel pointing at the fake. */
export function fakeLumaChannel(upstream: FakeLumaUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return { name: 'fake-luma', provider: 'luma', baseUrl: upstream.url, apiKey: FAKE_LUMA_KEY, headers: {}, timeoutMs: 5_000, options: {}, ...overrides };
}
