/**
 * A fake OpenAI Images upstream on a real `node:http` server, following the published API:
 * `POST /v1/images/generations` (JSON) and `POST /v1/images/edits` (multipart/form-data,
 * parsed for real by the platform's FormData parser), Bearer key checks, errors in OpenAI's
 * `{error:{message,type,param,code}}` shape.
 *
 * Models: GPT image models (`gpt-image-*`) answer base64 only and refuse `response_format`,
 * sizes 1024x1024, 1536x1024, 1024x1536 or auto, and report token usage; `dall-e-2`/`dall-e-3`
 * answer a URL (served by the fake itself, under `/files/`) unless asked for `b64_json`, and
 * dall-e-3 revises the prompt. Pictures are real PNGs of the asked size, made with sharp:
 * generations are a solid colour picked from the prompt; edits are the first input image
 * resized to the asked size, so a test can tell its bytes made the trip.
 *
 * Scenarios (`x-fake-scenario` header or `setNext`): fail-429, fail-500, fail-503, moderation.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, sendJson, readBodyBytes } from './fake-http.js';

export const FAKE_OPENAI_IMAGES_KEY = 'sk-fake-openai-images';
export const FAKE_IMAGES_CREATED = 1_713_833_628;

export interface RecordedFile {
  filename: string;
  type: string;
  bytes: Buffer;
}

export interface RecordedImagesRequest {
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body of a generation. */
  json?: Record<string, unknown>;
  /** Text fields of a multipart edit, each name with all its values in order. */
  fields?: Record<string, string[]>;
  /** File parts of a multipart edit, by part name. */
  files?: Record<string, RecordedFile[]>;
}

export interface FakeOpenAIImagesUpstream {
  /** Base URL including `/v1`, as a channel's baseUrl. */
  url: string;
  requests: RecordedImagesRequest[];
  setNext(scenario: string): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}

const GPT_IMAGE_SIZES = ['1024x1024', '1024x1536', '1536x1024'];
const SIZES: Record<string, string[]> = {
  'dall-e-2': ['256x256', '512x512', '1024x1024'],
  'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'],
};

export async function startFakeOpenAIImagesUpstream(options: { apiKey?: string } = {}): Promise<FakeOpenAIImagesUpstream> {
  const apiKey = options.apiKey ?? FAKE_OPENAI_IMAGES_KEY;
  const requests: RecordedImagesRequest[] = [];
  const files = new Map<string, Buffer>();
  let next: string | undefined;
  let counter = 0;
  let origin = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ApiError) return sendError(res, error);
      sendError(res, new ApiError(500, `The server had an error while processing your request: ${String(error)}`, null, null, 'server_error'));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    res.setHeader('x-request-id', `req_fakeimg${++counter}`);
    if (req.method === 'GET' && path.startsWith('/files/')) {
      const png = files.get(path.slice('/files/'.length));
      if (!png) throw new ApiError(404, 'Not found');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      res.end(png);
      return;
    }
    const body = await readBodyBytes(req);
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      throw new ApiError(401, 'Incorrect API key provided.', null, 'invalid_api_key');
    }
    const scenario = next ?? headerValue(req, 'x-fake-scenario');
    next = undefined;
    if (req.method === 'POST' && path === '/v1/images/generations') {
      const json = parseJson(body);
      requests.push({ path, headers: req.headers, json });
      failIfAsked(scenario);
      return sendJson(res, 200, await generations(json));
    }
    if (req.method === 'POST' && path === '/v1/images/edits') {
      const { fields, parts } = await parseMultipart(req, body);
      requests.push({ path, headers: req.headers, fields, files: parts });
      failIfAsked(scenario);
      return sendJson(res, 200, await edits(fields, parts));
    }
    throw new ApiError(404, `Invalid URL (${req.method} ${path})`);
  }

  async function generations(json: Json): Promise<Json> {
    const model = typeof json.model === 'string' ? json.model : 'dall-e-2';
    if (typeof json.prompt !== 'string' || json.prompt.length === 0)
      throw new ApiError(400, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
    const n = count(json.n, model);
    const size = chooseSize(model, json.size);
    const format = responseFormat(model, json.response_format);
    const [width, height] = size.split('x').map(Number);
    const pngs = await Promise.all(Array.from({ length: n }, (_, i) => solidPng(width, height, `${json.prompt}#${i}`)));
    return answer(model, pngs, format, typeof json.prompt === 'string' ? json.prompt : '', size);
  }

  async function edits(fields: Record<string, string[]>, parts: Record<string, RecordedFile[]>): Promise<Json> {
    const model = fields.model?.[0] ?? 'dall-e-2';
    const prompt = fields.prompt?.[0];
    if (!prompt) throw new ApiError(400, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
    const images = [...(parts.image ?? []), ...(parts['image[]'] ?? [])];
    if (images.length === 0) throw new ApiError(400, "Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
    if (model.startsWith('dall-e') && images.length > 1) throw new ApiError(400, 'dall-e-2 edits take exactly one image.', 'image', 'invalid_value');
    if (images.length > 16) throw new ApiError(400, 'Too many images: at most 16 are allowed.', 'image', 'invalid_value');
    const dimensions = [];
    for (const image of images) {
      const meta = await sharp(image.bytes)
        .metadata()
        .catch(() => undefined);
      if (!meta || !['png', 'jpeg', 'webp'].includes(meta.format ?? '')) {
        throw new ApiError(
          400,
          `Invalid file 'image': unsupported mimetype ('${image.type}'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
          'image',
          'unsupported_file_mimetype',
        );
      }
      dimensions.push(meta);
    }
    const mask = parts.mask?.[0];
    if (mask) {
      const meta = await sharp(mask.bytes)
        .metadata()
        .catch(() => undefined);
      if (meta?.format !== 'png' || !meta.hasAlpha)
        throw new ApiError(400, 'Invalid mask image: the mask must be a PNG with an alpha channel.', 'mask', 'invalid_image');
      if (meta.width !== dimensions[0].width || meta.height !== dimensions[0].height) {
        throw new ApiError(400, 'Invalid mask image: the mask must have the same dimensions as the image.', 'mask', 'invalid_image');
      }
    }
    const n = count(fields.n?.[0] === undefined ? undefined : Number(fields.n[0]), model);
    const size =
      fields.size?.[0] === 'auto' || fields.size === undefined ? `${dimensions[0].width}x${dimensions[0].height}` : chooseSize(model, fields.size[0]);
    const format = responseFormat(model, fields.response_format?.[0]);
    const [width, height] = size.split('x').map(Number);
    const pngs = await Promise.all(Array.from({ length: n }, () => sharp(images[0].bytes).resize(width, height, { fit: 'fill' }).png().toBuffer()));
    return answer(model, pngs, format, prompt, size);
  }

  function answer(model: string, pngs: Buffer[], format: 'url' | 'b64_json', prompt: string, size: string): Json {
    const data = pngs.map((png) => {
      const item: Json = {};
      if (format === 'url') {
        const name = `img-${++counter}.png`;
        files.set(name, png);
        item.url = `${origin}/files/${name}`;
      } else {
        item.b64_json = png.toString('base64');
      }
      if (model === 'dall-e-3') item.revised_prompt = `A detailed picture of ${prompt}`;
      return item;
    });
    const result: Json = { created: FAKE_IMAGES_CREATED, data };
    if (model.startsWith('gpt-image')) {
      const textTokens = prompt.split(/\s+/).filter(Boolean).length;
      result.background = 'opaque';
      result.output_format = 'png';
      result.quality = 'medium';
      result.size = size;
      result.usage = {
        total_tokens: textTokens + 1056 * pngs.length,
        input_tokens: textTokens,
        output_tokens: 1056 * pngs.length,
        input_tokens_details: { text_tokens: textTokens, image_tokens: 0 },
      };
    }
    return result;
  }

  function failIfAsked(scenario: string | undefined): void {
    switch (scenario) {
      case 'fail-429':
        throw new ApiError(429, 'Rate limit reached for images per minute.', null, 'rate_limit_exceeded', 'requests');
      case 'fail-500':
        throw new ApiError(500, 'The server had an error while processing your request. Sorry about that!', null, null, 'server_error');
      case 'fail-503':
        throw new ApiError(503, 'The engine is currently overloaded, please try again later.', null, null, 'server_error');
      case 'moderation':
        throw new ApiError(400, 'Your request was rejected by the safety system.', null, 'moderation_blocked', 'image_generation_user_error');
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    requests,
    setNext(scenario) {
      next = scenario;
    },
    close: () => closeServer(server),
  };
}

/** A channel pointing at the fake, for provider tests. */
export function fakeOpenAIImagesChannel(upstream: FakeOpenAIImagesUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return {
    name: 'fake-openai-images',
    provider: 'openai',
    baseUrl: upstream.url,
    apiKey: FAKE_OPENAI_IMAGES_KEY,
    headers: {},
    timeoutMs: 5_000,
    options: {},
    ...overrides,
  };
}

function count(value: unknown, model: string): number {
  if (value === undefined || value === null) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new ApiError(400, `Invalid type for 'n': expected an integer, but got ${typeof value} instead.`, 'n', 'invalid_type');
  if (value < 1)
    throw new ApiError(400, `Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${value} instead.`, 'n', 'integer_below_min_value');
  if (value > 10)
    throw new ApiError(400, `Invalid 'n': integer above maximum value. Expected a value <= 10, but got ${value} instead.`, 'n', 'integer_above_max_value');
  if (model === 'dall-e-3' && value !== 1) throw new ApiError(400, 'Invalid value for n: dall-e-3 only supports n=1.', 'n', 'invalid_value');
  return value;
}

function chooseSize(model: string, value: unknown): string {
  const allowed = model.startsWith('gpt-image') ? GPT_IMAGE_SIZES : (SIZES[model] ?? SIZES['dall-e-2']);
  if (value === undefined || value === null || (value === 'auto' && model.startsWith('gpt-image'))) return '1024x1024';
  if (typeof value !== 'string' || !allowed.includes(value)) {
    const listed = [...allowed, ...(model.startsWith('gpt-image') ? ['auto'] : [])].map((s) => `'${s}'`);
    throw new ApiError(
      400,
      `Invalid value: '${String(value)}'. Supported values are: ${listed.slice(0, -1).join(', ')}, and ${listed.at(-1)}.`,
      'size',
      'invalid_value',
    );
  }
  return value;
}

function responseFormat(model: string, value: unknown): 'url' | 'b64_json' {
  if (model.startsWith('gpt-image')) {
    if (value !== undefined) throw new ApiError(400, "Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
    return 'b64_json';
  }
  if (value === undefined || value === 'url') return 'url';
  if (value === 'b64_json') return 'b64_json';
  throw new ApiError(400, `Invalid value: '${String(value)}'. Supported values are: 'url' and 'b64_json'.`, 'response_format', 'invalid_value');
}

async function solidPng(width: number, height: number, seedText: string): Promise<Buffer> {
  let hash = 0;
  for (const char of seedText) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  const background = { r: hash & 0xff, g: (hash >>> 8) & 0xff, b: (hash >>> 16) & 0xff };
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

async function parseMultipart(req: IncomingMessage, body: Buffer): Promise<{ fields: Record<string, string[]>; parts: Record<string, RecordedFile[]> }> {
  const contentType = headerValue(req, 'content-type') ?? '';
  if (!contentType.startsWith('multipart/form-data')) {
    throw new ApiError(400, `Invalid Content-Type header (${contentType}), expected multipart/form-data.`, null, 'invalid_content_type');
  }
  const form = await new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData().catch(() => {
    throw new ApiError(400, 'Could not parse multipart form', null, 'invalid_multipart');
  });
  const fields: Record<string, string[]> = {};
  const parts: Record<string, RecordedFile[]> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      fields[name] ??= [];
      fields[name].push(value);
    } else {
      parts[name] ??= [];
      parts[name].push({ filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
    }
  }
  return { fields, parts };
}

function parseJson(body: Buffer): Json {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  } catch {
    // answered below
  }
  throw new ApiError(400, 'We could not parse the JSON body of your request.');
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, { error: { message: error.message, type: error.type, param: error.param, code: error.code } });
}
