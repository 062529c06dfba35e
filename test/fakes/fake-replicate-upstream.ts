/**
 * A fake Replicate API on a real `node:http` server, following the published wire format:
 * Bearer token; `POST /v1/models/{owner}/{name}/predictions {input}` and `POST /v1/predictions
 * {version, input}` answering 201 with a prediction `{id, model, version, input, logs, output,
 * error, status, created_at, started_at, completed_at, urls:{get, cancel, stream, web}}`;
 * `Prefer: wait=N` holds the answer until the prediction ends or N seconds passed;
 * `GET /v1/predictions/{id}`; `POST /v1/predictions/{id}/cancel`. Errors are problem details
 * `{title, detail, status}` (422 adds `invalid_fields`). Predictions take `processingMs`
 * (starting → processing → succeeded); outputs are delivery URLs served by the fake itself as
 * real images of the model's size.
 *
 * Models: `black-forest-labs/flux-schnell` and `flux-dev` (aspect_ratio from a fixed list,
 * `num_outputs` 1–4, `output` a list), `black-forest-labs/flux-pro` and `flux-1.1-pro`
 * (`aspect_ratio: "custom"` with width/height 256–1440 rounded to 32, one image, `output` a
 * string), `black-forest-labs/flux-1.1-pro-ultra` (aspect ratio only, one image whatever
 * `num_outputs` says); version `FAKE_SCHNELL_VERSION` is flux-schnell.
 *
 * Scenarios, chosen by the model name (`fake/<scenario>`) or a word in the prompt: nsfw
 * (failed: NSFW content detected), fail-model (failed: a model error), fail-402, fail-429,
 * fail-422, slow (never finishes).
 *
 * For task-mode tests: the clock is settable (`now`, `advance`; real time by default) and
 * states follow it; outputs are served only once the prediction succeeded and answer 404 after
 * `outputTtlMs` or `expireOutputs()`; `failNextPrediction`, `throttleGets` (429 with
 * Retry-After on reads) and `failCreates` (5xx) inject failures; a prediction created with a
 * `webhook` gets a signed `completed` delivery (Standard Webhooks, with `webhookSecret`) once it
 * ends, or a wrongly signed one after `setBadWebhookSignature(true)`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, readBody, sendJson } from './fake-http.js';
import { newWebhookSecret, signStandardWebhook } from './standard-webhook-signature.js';

export const FAKE_REPLICATE_TOKEN = 'r8_fakeReplicateUpstreamToken';
export const FAKE_SCHNELL_VERSION = '5599ed30703defd1d160a25a63321b4dec97101d98b4674bcc56e41f62f35637';
/** Replicate keeps API predictions' outputs for an hour. */
const DEFAULT_OUTPUT_TTL_MS = 60 * 60_000;
/** The progress bar the fake's "model" prints while processing counts these steps. */
const STEPS = 28;

/** `multi`: a list of up to 4; `custom`: one image, exact sizes allowed; `single`: one image, aspect ratio only. */
type ModelKind = 'multi' | 'custom' | 'single';
const MODELS: Record<string, ModelKind> = {
  'black-forest-labs/flux-schnell': 'multi',
  'black-forest-labs/flux-dev': 'multi',
  'black-forest-labs/flux-pro': 'custom',
  'black-forest-labs/flux-1.1-pro': 'custom',
  'black-forest-labs/flux-1.1-pro-ultra': 'single',
};
const RATIO_SIZES: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '16:9': [1344, 768],
  '21:9': [1536, 640],
  '3:2': [1216, 832],
  '2:3': [832, 1216],
  '4:5': [896, 1088],
  '5:4': [1088, 896],
  '3:4': [896, 1152],
  '4:3': [1152, 896],
  '9:16': [768, 1344],
  '9:21': [640, 1536],
};
const FORMATS = ['webp', 'jpg', 'png'];
const SCENARIOS = ['nsfw', 'fail-model', 'fail-402', 'fail-429', 'fail-422', 'slow'] as const;
type Scenario = (typeof SCENARIOS)[number];

export interface ReplicateRecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakePrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  createdAt: number;
  width: number;
  height: number;
  count: number;
  kind: ModelKind;
  format: string;
  seed: number;
  scenario?: Scenario;
  canceledAt?: number;
  /** Set by `failNextPrediction`: the prediction fails with this error. */
  failure?: string;
  webhook?: string;
  webhookEvents?: unknown;
  webhookSent?: boolean;
  outputsExpired?: boolean;
}

export interface WebhookDelivery {
  url: string;
  predictionId: string;
  headers: Record<string, string>;
  body: string;
  /** The receiver's answer, or the error reaching it. */
  status?: number;
  error?: string;
}

export interface FakeReplicateUpstreamOptions {
  /** How long a prediction runs before it succeeds (default 50 ms). */
  processingMs?: number;
  /** The clock states follow (default real time); `advance` moves it on. */
  now?: () => number;
  /** How long outputs stay downloadable after the prediction ended (default 1 hour). */
  outputTtlMs?: number;
  /** The account's webhook signing secret (default: a random `whsec_…`). */
  webhookSecret?: string;
}

export interface FakeReplicateUpstream {
  /** Base URL (without `/v1`), as a channel's baseUrl. */
  url: string;
  requests: ReplicateRecordedRequest[];
  predictions: Map<string, FakePrediction>;
  /** Ids of the predictions a client canceled. */
  canceled: string[];
  /** Webhook deliveries made, in order. */
  webhooks: WebhookDelivery[];
  webhookSecret: string;
  now(): number;
  /** Moves the clock on (predictions progress, due webhooks go out). */
  advance(ms: number): void;
  /** Every output made so far answers 404 from now on. */
  expireOutputs(): void;
  /** The next prediction created fails with this error when it ends. */
  failNextPrediction(message: string): void;
  /** The next `count` prediction reads answer 429 with `Retry-After: retryAfterSeconds`. */
  throttleGets(count: number, retryAfterSeconds: number): void;
  /** The next `count` creates answer this server error (nothing is created). */
  failCreates(count: number, status?: number): void;
  /** Signs the next webhooks with the wrong key (true) or the right one again (false). */
  setBadWebhookSignature(bad: boolean): void;
  /** Resolves once every webhook delivery started so far has been answered. */
  flushWebhooks(): Promise<void>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

export async function startFakeReplicateUpstream(options: FakeReplicateUpstreamOptions = {}): Promise<FakeReplicateUpstream> {
  const processingMs = options.processingMs ?? 50;
  const outputTtlMs = options.outputTtlMs ?? DEFAULT_OUTPUT_TTL_MS;
  const webhookSecret = options.webhookSecret ?? newWebhookSecret();
  const clock = options.now ?? Date.now;
  let offsetMs = 0;
  const now = () => clock() + offsetMs;
  const requests: ReplicateRecordedRequest[] = [];
  const predictions = new Map<string, FakePrediction>();
  const canceled: string[] = [];
  const webhooks: WebhookDelivery[] = [];
  const pendingDeliveries = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;
  // Ids unique across fakes, as Replicate's are: a webhook receiver shared by several fakes tells them apart.
  const instance = randomBytes(10).toString('hex');
  let base = '';
  let nextFailure: string | undefined;
  let throttled = { count: 0, retryAfterSeconds: 1 };
  let failingCreates = { count: 0, status: 500 };
  let badSignature = false;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendProblem(res, 500, 'Internal server error', String(error));
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

    // Delivery URLs (replicate.delivery) need no token.
    const file = /^\/files\/([^/]+)\/out-(\d+)\.(webp|jpg|png)$/.exec(path);
    if (req.method === 'GET' && file) {
      const prediction = predictions.get(file[1]);
      return serveOutput(res, prediction && outputAvailable(prediction) ? prediction : undefined, Number(file[2]));
    }

    if (req.headers.authorization !== `Bearer ${FAKE_REPLICATE_TOKEN}`) {
      return sendProblem(res, 401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }

    const byModel = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (req.method === 'POST' && (byModel || path === '/v1/predictions')) {
      if (failingCreates.count > 0) {
        failingCreates.count--;
        return sendProblem(res, failingCreates.status, 'Internal server error', 'Something went wrong on our end. Please try again.');
      }
      if (!body) return sendProblem(res, 400, 'Invalid JSON', 'The request body is not valid JSON');
      let model: string | undefined;
      let version: string;
      if (byModel) {
        model = `${byModel[1]}/${byModel[2]}`;
        version = `fake-official-${byModel[2]}`;
      } else {
        version = typeof body.version === 'string' ? body.version : '';
        model = version === FAKE_SCHNELL_VERSION ? 'black-forest-labs/flux-schnell' : undefined;
        if (!model)
          return sendProblem(
            res,
            422,
            'Invalid version or not permitted',
            "The specified version does not exist (or perhaps you don't have permission to use it?)",
          );
      }
      const modelScenario = SCENARIOS.find((scenario) => model === `fake/${scenario}`);
      const kind = MODELS[model] ?? (modelScenario ? 'multi' : undefined);
      if (!kind) return sendProblem(res, 404, 'Not found', 'The requested resource could not be found.');
      return create(req, res, model, version, kind, body, modelScenario);
    }

    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      if (throttled.count > 0) {
        throttled.count--;
        res.setHeader('retry-after', String(throttled.retryAfterSeconds));
        return sendProblem(res, 429, 'Request was throttled', `Request was throttled. Your rate limit resets in ~${throttled.retryAfterSeconds}s.`);
      }
      deliverDueWebhooks();
      const prediction = predictions.get(get[1]);
      return prediction ? sendJson(res, 200, view(prediction)) : sendProblem(res, 404, 'Not found', 'Not found.');
    }
    const cancel = /^\/v1\/predictions\/([^/]+)\/cancel$/.exec(path);
    if (req.method === 'POST' && cancel) {
      const prediction = predictions.get(cancel[1]);
      if (!prediction) return sendProblem(res, 404, 'Not found', 'Not found.');
      canceled.push(prediction.id);
      if (!isTerminal(statusOf(prediction))) prediction.canceledAt = now();
      deliverDueWebhooks();
      return sendJson(res, 200, view(prediction));
    }
    sendProblem(res, 404, 'Not found', 'The requested resource could not be found.');
  }

  async function create(
    req: IncomingMessage,
    res: ServerResponse,
    model: string,
    version: string,
    kind: ModelKind,
    body: Json,
    modelScenario?: Scenario,
  ): Promise<void> {
    const { input, webhook, webhook_events_filter: webhookEvents } = body;
    if (webhook !== undefined && (typeof webhook !== 'string' || !/^https?:\/\//.test(webhook))) {
      return sendInvalid(res, [{ type: 'format', field: 'webhook', description: 'Does not match format "uri"' }]);
    }
    if (input === null || typeof input !== 'object') {
      return sendInvalid(res, [{ type: 'required', field: 'input', description: 'input is required' }]);
    }
    const fields = input as Json;
    const scenario = modelScenario ?? (typeof fields.prompt === 'string' ? SCENARIOS.find((word) => (fields.prompt as string).includes(word)) : undefined);
    if (scenario === 'fail-402') {
      return sendProblem(
        res,
        402,
        'Insufficient credit',
        'You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit.',
      );
    }
    if (scenario === 'fail-429') {
      res.setHeader('retry-after', '1');
      return sendProblem(res, 429, 'Request was throttled', 'Request was throttled. Your rate limit resets in ~1s.');
    }
    if (scenario === 'fail-422')
      return sendInvalid(res, [{ type: 'string_too_long', field: 'input.prompt', description: 'String length must be less than or equal to 10000' }]);
    const invalid = validate(fields, kind);
    if (invalid.length > 0) return sendInvalid(res, invalid);

    const n = ++counter;
    const format = typeof fields.output_format === 'string' ? fields.output_format : 'webp';
    const prediction: FakePrediction = {
      id: `fk${String(n).padStart(6, '0')}${instance}`,
      model,
      version,
      input: fields,
      createdAt: now(),
      ...sizeOf(fields, kind),
      count: kind === 'multi' ? ((fields.num_outputs as number | undefined) ?? 1) : 1,
      kind,
      format,
      seed: typeof fields.seed === 'number' ? fields.seed : 4000 + n,
      scenario,
      failure: nextFailure,
      webhook: webhook as string | undefined,
      webhookEvents,
    };
    nextFailure = undefined;
    predictions.set(prediction.id, prediction);
    if (prediction.webhook) {
      // In real time the prediction ends on its own: look for due webhooks then.
      const timer = setTimeout(() => {
        timers.delete(timer);
        deliverDueWebhooks();
      }, processingMs + 5);
      timers.add(timer);
    }

    const waitMs = preferWaitMs(req.headers.prefer);
    if (waitMs > 0) {
      const left = scenario === 'slow' ? waitMs : Math.min(waitMs, processingMs);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, left);
        timers.add(timer);
      });
    }
    sendJson(res, 201, view(prediction));
  }

  function statusOf(prediction: FakePrediction): string {
    if (prediction.canceledAt !== undefined) return 'canceled';
    const age = now() - prediction.createdAt;
    if (prediction.scenario === 'slow' || age < processingMs) return age < processingMs / 3 ? 'starting' : 'processing';
    if (prediction.scenario === 'nsfw' || prediction.scenario === 'fail-model' || prediction.failure !== undefined) return 'failed';
    return 'succeeded';
  }

  function completedAt(prediction: FakePrediction): number {
    return prediction.canceledAt ?? prediction.createdAt + processingMs;
  }

  /** Flux on Replicate prints its seed, then a tqdm bar over the inference steps. */
  function logsOf(prediction: FakePrediction, status: string): string {
    if (status === 'starting') return '';
    const running = Math.min(1, (now() - prediction.createdAt - processingMs / 3) / ((processingMs * 2) / 3));
    const steps = status === 'succeeded' ? STEPS : Math.max(0, Math.min(STEPS - 1, Math.floor(running * STEPS)));
    const percent = Math.floor((steps / STEPS) * 100);
    const bar = '█'.repeat(Math.floor(percent / 10)).padEnd(10, ' ');
    return `Using seed: ${prediction.seed}\nRunning inference\n${String(percent).padStart(3, ' ')}%|${bar}| ${steps}/${STEPS} [00:01<00:01, 4.20it/s]\n`;
  }

  function outputAvailable(prediction: FakePrediction): boolean {
    return statusOf(prediction) === 'succeeded' && !prediction.outputsExpired && now() <= completedAt(prediction) + outputTtlMs;
  }

  /** Sends the `completed` webhook of every prediction that ended and asked for one. */
  function deliverDueWebhooks(): void {
    for (const prediction of predictions.values()) {
      if (!prediction.webhook || prediction.webhookSent || !isTerminal(statusOf(prediction))) continue;
      const events = prediction.webhookEvents;
      if (Array.isArray(events) && !events.includes('completed')) continue;
      prediction.webhookSent = true;
      const delivery = deliver(prediction);
      pendingDeliveries.add(delivery);
      void delivery.finally(() => pendingDeliveries.delete(delivery));
    }
  }

  async function deliver(prediction: FakePrediction): Promise<void> {
    const body = JSON.stringify(view(prediction));
    const secret = badSignature ? newWebhookSecret() : webhookSecret;
    const headers = { 'content-type': 'application/json', ...signStandardWebhook(secret, body, Math.floor(now() / 1000)) };
    const record: WebhookDelivery = { url: prediction.webhook!, predictionId: prediction.id, headers, body };
    webhooks.push(record);
    try {
      const response = await fetch(record.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      record.status = response.status;
    } catch (error) {
      record.error = String(error);
    }
  }

  function view(prediction: FakePrediction): Json {
    const status = statusOf(prediction);
    const iso = (ms: number) => new Date(ms).toISOString();
    const urls = {
      cancel: `${base}/v1/predictions/${prediction.id}/cancel`,
      get: `${base}/v1/predictions/${prediction.id}`,
      stream: `${base}/stream/${prediction.id}`,
      web: `${base}/p/${prediction.id}`,
    };
    const outputs = Array.from({ length: prediction.count }, (_, i) => `${base}/files/${prediction.id}/out-${i}.${prediction.format}`);
    const failure =
      prediction.failure ??
      (prediction.scenario === 'nsfw'
        ? 'NSFW content detected. Try running it again, or try a different prompt.'
        : 'Prediction failed: CUDA error: out of memory (the model crashed)');
    return {
      id: prediction.id,
      model: prediction.model,
      version: prediction.version,
      input: prediction.input,
      logs: logsOf(prediction, status),
      output: status === 'succeeded' ? (prediction.kind === 'multi' ? outputs : outputs[0]) : null,
      data_removed: false,
      error: status === 'failed' ? failure : null,
      status,
      created_at: iso(prediction.createdAt),
      ...(status !== 'starting' ? { started_at: iso(prediction.createdAt + processingMs / 3) } : {}),
      ...(isTerminal(status) ? { completed_at: iso(completedAt(prediction)) } : {}),
      ...(status === 'succeeded' ? { metrics: { predict_time: processingMs / 1500, image_count: prediction.count } } : {}),
      urls,
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    predictions,
    canceled,
    webhooks,
    webhookSecret,
    now,
    advance(ms) {
      offsetMs += ms;
      deliverDueWebhooks();
    },
    expireOutputs() {
      for (const prediction of predictions.values()) prediction.outputsExpired = true;
    },
    failNextPrediction(message) {
      nextFailure = message;
    },
    throttleGets(count, retryAfterSeconds) {
      throttled = { count, retryAfterSeconds };
    },
    failCreates(count, status = 500) {
      failingCreates = { count, status };
    },
    setBadWebhookSignature(bad) {
      badSignature = bad;
    },
    async flushWebhooks() {
      while (pendingDeliveries.size > 0) await Promise.all([...pendingDeliveries]);
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return closeServer(server);
    },
  };
}

/** A channel pointing at the fake, polling every 20 ms. */
export function fakeReplicateChannel(upstream: FakeReplicateUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return {
    name: 'fake-replicate',
    provider: 'replicate',
    baseUrl: upstream.url,
    apiKey: FAKE_REPLICATE_TOKEN,
    headers: {},
    timeoutMs: 5_000,
    options: { pollIntervalMs: 20 },
    ...overrides,
  };
}

/** `Prefer: wait` (60 s) or `wait=N` (1–60 s); anything else: no wait. */
function preferWaitMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^\s*wait(?:=(\d+))?\s*$/.exec(value ?? '');
  if (!match) return 0;
  return Math.min(60, match[1] === undefined ? 60 : Number(match[1])) * 1000;
}

function isTerminal(status: string): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

function validate(input: Json, kind: ModelKind): Json[] {
  const invalid: Json[] = [];
  const fail = (field: string, type: string, description: string) => invalid.push({ type, field: `input.${field}`, description });
  if (typeof input.prompt !== 'string') fail('prompt', 'required', 'prompt is required');
  const ratios = kind === 'custom' ? [...Object.keys(RATIO_SIZES), 'custom'] : Object.keys(RATIO_SIZES);
  if (input.aspect_ratio !== undefined && !ratios.includes(input.aspect_ratio as string)) {
    fail('aspect_ratio', 'enum', `aspect_ratio must be one of the following: ${ratios.map((r) => `"${r}"`).join(', ')}`);
  }
  if (input.output_format !== undefined && !FORMATS.includes(input.output_format as string)) {
    fail('output_format', 'enum', 'output_format must be one of the following: "webp", "jpg", "png"');
  }
  if (kind === 'multi' && input.num_outputs !== undefined) {
    const count = input.num_outputs;
    if (typeof count !== 'number' || !Number.isInteger(count)) fail('num_outputs', 'invalid_type', `Invalid type. Expected: integer, given: ${typeof count}`);
    else if (count < 1) fail('num_outputs', 'number_gte', 'Must be greater than or equal to 1');
    else if (count > 4) fail('num_outputs', 'number_lte', 'Must be less than or equal to 4');
  }
  if (kind === 'custom') {
    for (const field of ['width', 'height']) {
      const value = input[field];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value)) fail(field, 'invalid_type', 'Invalid type. Expected: integer');
      else if (value < 256) fail(field, 'number_gte', 'Must be greater than or equal to 256');
      else if (value > 1440) fail(field, 'number_lte', 'Must be less than or equal to 1440');
    }
  }
  return invalid;
}

function sizeOf(input: Json, kind: ModelKind): { width: number; height: number } {
  if (kind === 'custom' && input.aspect_ratio === 'custom') {
    // Replicate's Flux Pro rounds a custom size to the nearest multiple of 32 itself.
    const round = (value: unknown) => Math.round(((value as number | undefined) ?? 1024) / 32) * 32;
    return { width: round(input.width), height: round(input.height) };
  }
  const [width, height] = RATIO_SIZES[(input.aspect_ratio as string | undefined) ?? '1:1'];
  return { width, height };
}

async function serveOutput(res: ServerResponse, prediction: FakePrediction | undefined, index: number): Promise<void> {
  if (!prediction || index >= prediction.count) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
    return;
  }
  const seed = prediction.seed + index;
  const colour = { r: (seed * 3) % 256, g: (seed * 5) % 256, b: (seed * 11) % 256 };
  const image = sharp({ create: { width: prediction.width, height: prediction.height, channels: 3, background: colour } });
  const encoded = prediction.format === 'png' ? image.png() : prediction.format === 'jpg' ? image.jpeg() : image.webp();
  const bytes = await encoded.toBuffer();
  const type = prediction.format === 'png' ? 'image/png' : prediction.format === 'jpg' ? 'image/jpeg' : 'image/webp';
  res.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
  res.end(bytes);
}

function sendProblem(res: ServerResponse, status: number, title: string, detail: string): void {
  sendJson(res, status, { title, detail, status });
}

function sendInvalid(res: ServerResponse, invalid: Json[]): void {
  const detail = invalid.map((field) => `- ${String(field.field)}: ${String(field.description)}\n`).join('');
  sendJson(res, 422, { title: 'Input validation failed', detail, status: 422, invalid_fields: invalid });
}
