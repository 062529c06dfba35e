/**
 * A fake Black Forest Labs API on a real `node:http` server, following the published wire
 * format: `x-key` header; `POST /v1/{model}` with `{prompt, width, height, seed, output_format,
 * …}` validated as BFL does (422 `{detail:[{loc, msg, type}]}`), answering `{id, polling_url}`;
 * `GET /v1/get_result?id=` answering `{id, status, result, progress, details, preview}` — `Pending`
 * for the first `pendingPolls` polls, then `Ready` with `result.sample`, a delivery URL served by
 * the fake itself as a real PNG/JPEG of the task's size.
 *
 * Scenarios, chosen by the model name or by a word in the prompt:
 *   fail-402 (no credits), fail-429 (too many active tasks), fail-422 (validation error on submit),
 *   moderate-request (`Request Moderated`), moderate-content (`Content Moderated`), fail-error
 *   (`Error`), lost-task (`Task not found`), slow (`Pending` forever).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, readBody, sendJson } from './fake-http.js';

export const FAKE_BFL_API_KEY = 'bfl-fake-upstream-key';

const MODELS = new Set(['flux-pro-1.1', 'flux-pro', 'flux-dev', 'flux-pro-1.1-ultra', 'flux-kontext-pro']);
const SCENARIOS = ['fail-402', 'fail-429', 'fail-422', 'moderate-request', 'moderate-content', 'fail-error', 'lost-task', 'slow'] as const;
type Scenario = (typeof SCENARIOS)[number];

export interface BflRecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakeBflTask {
  id: string;
  model: string;
  body: Record<string, unknown>;
  width: number;
  height: number;
  seed: number;
  format: 'png' | 'jpeg';
  scenario?: Scenario;
  polls: number;
}

export interface FakeBflUpstreamOptions {
  /** Polls answered `Pending` before a task is `Ready` (default 2). */
  pendingPolls?: number;
}

export interface FakeBflUpstream {
  /** Base URL (without `/v1`), as a channel's baseUrl. */
  url: string;
  requests: BflRecordedRequest[];
  tasks: Map<string, FakeBflTask>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

export async function startFakeBflUpstream(options: FakeBflUpstreamOptions = {}): Promise<FakeBflUpstream> {
  const pendingPolls = options.pendingPolls ?? 2;
  const requests: BflRecordedRequest[] = [];
  const tasks = new Map<string, FakeBflTask>();
  let counter = 0;
  let base = '';

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { detail: String(error) });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const parsedUrl = new URL(req.url ?? '/', base);
    let body: Json | undefined;
    try {
      body = text.length > 0 ? (JSON.parse(text) as Json) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? 'GET', path: parsedUrl.pathname, query: parsedUrl.searchParams, headers: req.headers, body });

    // Delivery URLs are signed: they need no key (like BFL's delivery host).
    const sample = /^\/samples\/([^/]+)\/sample\.(png|jpeg)$/.exec(parsedUrl.pathname);
    if (req.method === 'GET' && sample) return serveSample(res, tasks.get(sample[1]));

    if (req.headers['x-key'] === undefined) return sendJson(res, 403, { detail: 'Not authenticated - no x-key header' });
    if (req.headers['x-key'] !== FAKE_BFL_API_KEY) return sendJson(res, 403, { detail: 'Not authenticated - Invalid Authentication' });

    if (req.method === 'GET' && parsedUrl.pathname === '/v1/get_result') return sendResult(res, parsedUrl.searchParams.get('id'));

    const submit = /^\/v1\/([^/]+)$/.exec(parsedUrl.pathname);
    if (req.method !== 'POST' || !submit) return sendJson(res, 404, { detail: 'Not Found' });
    const model = decodeURIComponent(submit[1]);
    const modelScenario = SCENARIOS.find((scenario) => scenario === model);
    if (!MODELS.has(model) && !modelScenario) return sendJson(res, 404, { detail: 'Not Found' });
    if (!body) return sendJson(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {} }] });

    const scenario = modelScenario ?? (typeof body.prompt === 'string' ? SCENARIOS.find((word) => (body.prompt as string).includes(word)) : undefined);
    if (scenario === 'fail-402') return sendJson(res, 402, { detail: 'Insufficient credits. Add credits at https://dashboard.bfl.ai to continue.' });
    if (scenario === 'fail-429') {
      res.setHeader('retry-after', '2');
      return sendJson(res, 429, { detail: 'You have exceeded the number of active tasks (24). Please wait for a task to finish.' });
    }
    if (scenario === 'fail-422') {
      return sendJson(res, 422, {
        detail: [{ type: 'string_too_long', loc: ['body', 'prompt'], msg: 'String should have at most 10000 characters', input: body.prompt }],
      });
    }

    const ultra = /ultra|kontext/.test(model);
    const problems = validate(body, ultra);
    if (problems.length > 0) return sendJson(res, 422, { detail: problems });

    const n = ++counter;
    const id = `${n.toString(16).padStart(8, '0')}-fake-4bfl-8000-${String(n).padStart(12, '0')}`;
    const size = ultra
      ? ultraSize(typeof body.aspect_ratio === 'string' ? body.aspect_ratio : '16:9')
      : { width: (body.width as number | undefined) ?? 1024, height: (body.height as number | undefined) ?? 768 };
    tasks.set(id, {
      id,
      model,
      body,
      ...size,
      seed: typeof body.seed === 'number' ? body.seed : 1000 + n,
      format: body.output_format === 'png' ? 'png' : 'jpeg',
      scenario,
      polls: 0,
    });
    sendJson(res, 200, { id, polling_url: `${base}/v1/get_result?id=${id}` });
  }

  function sendResult(res: ServerResponse, id: string | null): void {
    const task = id ? tasks.get(id) : undefined;
    if (!task || task.scenario === 'lost-task')
      return sendJson(res, 200, { id, status: 'Task not found', result: null, progress: null, details: null, preview: null });
    task.polls += 1;
    const record = (status: string, extra: Json = {}) => ({ id: task.id, status, result: null, progress: null, details: null, preview: null, ...extra });
    if (task.polls <= pendingPolls || task.scenario === 'slow') {
      return sendJson(res, 200, record('Pending', { progress: Math.min(0.9, task.polls / (pendingPolls + 1)) }));
    }
    if (task.scenario === 'moderate-request')
      return sendJson(res, 200, record('Request Moderated', { details: { 'Moderation Reasons': ['Derivative Works'] } }));
    if (task.scenario === 'moderate-content') return sendJson(res, 200, record('Content Moderated', { details: { 'Moderation Reasons': ['Sexual Content'] } }));
    if (task.scenario === 'fail-error') return sendJson(res, 200, record('Error', { details: 'Internal generation error' }));
    sendJson(
      res,
      200,
      record('Ready', {
        progress: 1,
        result: {
          sample: `${base}/samples/${task.id}/sample.${task.format}?se=2030-01-01T00%3A00%3A00Z&sig=fake`,
          prompt: task.body.prompt,
          seed: task.seed,
          start_time: 1_700_000_000.5,
          end_time: 1_700_000_004.25,
          duration: 3.75,
        },
      }),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    tasks,
    close: () => closeServer(server),
  };
}

/** A channel pointing at the fake, polling every 20 ms. */
export function fakeBflChannel(upstream: FakeBflUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return {
    name: 'fake-bfl',
    provider: 'bfl',
    baseUrl: upstream.url,
    apiKey: FAKE_BFL_API_KEY,
    headers: {},
    timeoutMs: 5_000,
    options: { pollIntervalMs: 20 },
    ...overrides,
  };
}

/** The image a Ready task's sample URL serves: a solid colour derived from its seed. */
async function serveSample(res: ServerResponse, task: FakeBflTask | undefined): Promise<void> {
  if (!task) {
    res.writeHead(404, { 'content-type': 'application/xml' });
    res.end('<Error><Code>BlobNotFound</Code></Error>');
    return;
  }
  const colour = { r: task.seed % 256, g: (task.seed * 7) % 256, b: (task.seed * 13) % 256 };
  const image = sharp({ create: { width: task.width, height: task.height, channels: 3, background: colour } });
  const bytes = await (task.format === 'png' ? image.png() : image.jpeg()).toBuffer();
  res.writeHead(200, { 'content-type': task.format === 'png' ? 'image/png' : 'image/jpeg', 'content-length': bytes.length });
  res.end(bytes);
}

/** FastAPI/pydantic-style validation of the fields the fake knows. */
function validate(body: Json, ultra: boolean): Json[] {
  const problems: Json[] = [];
  const problem = (field: string, type: string, msg: string, ctx?: Json) =>
    problems.push({ type, loc: ['body', field], msg, input: body[field], ...(ctx ? { ctx } : {}) });
  if (typeof body.prompt !== 'string') problem('prompt', 'missing', 'Field required');
  if (!ultra) {
    for (const field of ['width', 'height']) {
      const value = body[field];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value)) problem(field, 'int_type', 'Input should be a valid integer');
      else if (value % 32 !== 0) problem(field, 'multiple_of', 'Input should be a multiple of 32', { multiple_of: 32 });
      else if (value < 256) problem(field, 'greater_than_equal', 'Input should be greater than or equal to 256', { ge: 256 });
      else if (value > 1440) problem(field, 'less_than_equal', 'Input should be less than or equal to 1440', { le: 1440 });
    }
  } else if (body.aspect_ratio !== undefined && (typeof body.aspect_ratio !== 'string' || ultraRatio(body.aspect_ratio) === undefined)) {
    problem('aspect_ratio', 'value_error', 'Value error, Aspect ratio must be between 21:9 and 9:21');
  }
  if (body.output_format !== undefined && body.output_format !== 'png' && body.output_format !== 'jpeg') {
    problem('output_format', 'enum', "Input should be 'jpeg' or 'png'", { expected: "'jpeg' or 'png'" });
  }
  const safety = body.safety_tolerance;
  if (safety !== undefined && (typeof safety !== 'number' || !Number.isInteger(safety) || safety < 0 || safety > 6)) {
    problem('safety_tolerance', 'less_than_equal', 'Input should be less than or equal to 6', { le: 6 });
  }
  return problems;
}

function ultraRatio(aspectRatio: string): number | undefined {
  const match = /^(\d+):(\d+)$/.exec(aspectRatio);
  if (!match) return undefined;
  const ratio = Number(match[1]) / Number(match[2]);
  return ratio >= 9 / 21 - 1e-9 && ratio <= 21 / 9 + 1e-9 ? ratio : undefined;
}

/** Ultra makes about four megapixels in the given ratio. */
function ultraSize(aspectRatio: string): { width: number; height: number } {
  const ratio = ultraRatio(aspectRatio) ?? 16 / 9;
  const area = 2048 * 2048;
  return { width: Math.round(Math.sqrt(area * ratio) / 32) * 32, height: Math.round(Math.sqrt(area / ratio) / 32) * 32 };
}
