/**
 * A fake Ideogram upstream on a real `node:http` server, following Ideogram 3.0's published
 * API: `POST /v1/ideogram-v3/{generate,remix,edit}` as multipart/form-data (parsed for real),
 * `Api-Key` header, the documented value lists and ranges (`image_weight` 1–100, `num_images`
 * 1–8, aspect ratios written `16x9`, `resolution` xor `aspect_ratio`), JPEG/PNG/WebP files
 * only, and an edit mask of the image's own size. Errors come as `{"detail": …}`.
 *
 * It answers `{created, data:[{url, prompt, resolution, is_image_safe, seed, style_type}]}`
 * with URLs of real PNGs it serves itself (`GET /ephemeral/<n>.png`), drawn so tests can check
 * what happened: remix mixes the image (resized to the output) with FAKE_REMIX_COLOR by
 * `image_weight`; edit paints FAKE_EDIT_COLOR where the mask is black and keeps the rest;
 * generate averages its `style_reference_images` (a blend), or paints a colour from the seed.
 *
 * Scenarios, by a word in the prompt: `unsafe` → 422 safety refusal; `fail-500`; `fail-429`
 * (with Retry-After); `flagged-image` → 200 with `is_image_safe: false` and a null url.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { ChannelConfig } from '../../src/providers/types.js';
import { closeServer, sendJson } from './fake-http.js';

export const FAKE_IDEOGRAM_KEY = 'ideogram-fake-upstream-key';
export const FAKE_EDIT_COLOR = [255, 0, 255] as const;
export const FAKE_REMIX_COLOR = [0, 160, 80] as const;
/** What the fake's Magic Prompt adds to a prompt when `magic_prompt` is `ON`. */
export const FAKE_MAGIC_SUFFIX = ', highly detailed';

/** The resolution Ideogram 3.0 renders for each aspect ratio (default 1x1). */
export const FAKE_ASPECT_RESOLUTIONS: Record<string, string> = {
  '1x1': '1024x1024',
  '16x9': '1344x768',
  '9x16': '768x1344',
  '4x3': '1152x864',
  '3x4': '864x1152',
  '3x2': '1248x832',
  '2x3': '832x1248',
  '16x10': '1280x800',
  '10x16': '800x1280',
  '5x4': '1120x896',
  '4x5': '896x1120',
  '2x1': '1408x704',
  '1x2': '704x1408',
  '3x1': '1536x512',
  '1x3': '512x1536',
};
const RESOLUTIONS = new Set(Object.values(FAKE_ASPECT_RESOLUTIONS).concat(['1024x960', '960x1024', '1152x896', '896x1152']));
const ENUMS: Record<string, readonly string[]> = {
  rendering_speed: ['FLASH', 'TURBO', 'DEFAULT', 'QUALITY'],
  style_type: ['AUTO', 'GENERAL', 'REALISTIC', 'DESIGN', 'FICTION'],
  magic_prompt: ['AUTO', 'ON', 'OFF'],
};
const MAX_STYLE_REFERENCE_BYTES = 10 * 1024 * 1024;

export interface RecordedFile {
  filename: string;
  type: string;
  size: number;
  /** Decoded dimensions of the image the file holds. */
  width: number;
  height: number;
  bytes: Uint8Array;
}

export interface RecordedIdeogramRequest {
  path: string;
  headers: IncomingMessage['headers'];
  /** Text fields, each with every value sent. */
  fields: Record<string, string[]>;
  files: Record<string, RecordedFile[]>;
}

export interface FakeIdeogramUpstream {
  /** Base URL, as a channel's baseUrl (like `https://api.ideogram.ai`). */
  url: string;
  requests: RecordedIdeogramRequest[];
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

type Rgb = readonly [number, number, number] | readonly number[];

export async function startFakeIdeogramUpstream(options: { apiKey?: string } = {}): Promise<FakeIdeogramUpstream> {
  const apiKey = options.apiKey ?? FAKE_IDEOGRAM_KEY;
  const requests: RecordedIdeogramRequest[] = [];
  const served = new Map<string, Buffer>();
  let counter = 0;
  let base = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) return sendJson(res, error.status, { detail: error.detail }, error.headers);
      sendJson(res, 500, { detail: `fake failure: ${String(error)}` });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const image = /^\/ephemeral\/(\d+)\.png$/.exec(path);
    if (req.method === 'GET' && image) {
      const png = served.get(image[1]);
      if (!png) throw new Refusal(404, 'Not Found');
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.end(png);
      return;
    }
    const endpoint = /^\/v1\/ideogram-v3\/(generate|remix|edit)$/.exec(path)?.[1];
    if (req.method !== 'POST' || !endpoint) throw new Refusal(404, 'Not Found');
    if (req.headers['api-key'] !== apiKey) throw new Refusal(401, 'Invalid API key');

    const { fields, files } = await readMultipart(req);
    requests.push({ path, headers: req.headers, fields, files });
    const field = (name: string): string | undefined => fields[name]?.[0];

    const prompt = field('prompt');
    if (!prompt) throw new Refusal(400, 'prompt: field required');
    if (prompt.includes('unsafe')) throw new Refusal(422, 'Prompt failed the safety check.');
    if (prompt.includes('fail-500')) throw new Refusal(500, 'Internal Server Error');
    if (prompt.includes('fail-429')) throw new Refusal(429, 'Too many requests', { 'retry-after': '1' });

    for (const [name, allowed] of Object.entries(ENUMS)) {
      const value = field(name);
      if (value !== undefined && !allowed.includes(value)) throw new Refusal(400, `${name}: must be one of ${allowed.join(', ')}`);
    }
    const numImages = integerField(field('num_images'), 'num_images', 1, 8) ?? 1;
    const requestedSeed = integerField(field('seed'), 'seed', 0, 2_147_483_647);
    const styleReferences = files.style_reference_images ?? [];
    if (styleReferences.reduce((sum, f) => sum + f.size, 0) > MAX_STYLE_REFERENCE_BYTES) {
      throw new Refusal(400, 'style_reference_images: the style references exceed 10MB in total');
    }

    let size: { width: number; height: number };
    let draw: (seed: number) => Promise<Buffer>;
    if (endpoint === 'edit') {
      const source = requireFile(files, 'image');
      const mask = requireFile(files, 'mask');
      if (mask.width !== source.width || mask.height !== source.height) {
        throw new Refusal(400, `mask: the mask (${mask.width}x${mask.height}) must be the same size as the image (${source.width}x${source.height})`);
      }
      size = { width: source.width, height: source.height };
      draw = () => paintMaskedArea(source, mask);
    } else {
      size = outputSize(field('resolution'), field('aspect_ratio'));
      if (endpoint === 'remix') {
        const source = requireFile(files, 'image');
        const weight = integerField(field('image_weight'), 'image_weight', 1, 100) ?? 50;
        draw = () => mixWithColor(source, size, weight / 100);
      } else if (styleReferences.length > 0) {
        draw = () => averageOf(styleReferences, size);
      } else {
        draw = (seed) => solid(size, [(seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256]);
      }
    }

    const flagged = prompt.includes('flagged-image');
    const usedPrompt = field('magic_prompt') === 'ON' ? `${prompt}${FAKE_MAGIC_SUFFIX}` : prompt;
    const data = [];
    for (let i = 0; i < numImages; i++) {
      const seed = requestedSeed !== undefined ? requestedSeed + i : 1000 + ++counter;
      let url: string | null = null;
      if (!flagged) {
        const id = String(++counter);
        served.set(id, await draw(seed));
        url = `${base}/ephemeral/${id}.png`;
      }
      data.push({
        url,
        prompt: usedPrompt,
        resolution: `${size.width}x${size.height}`,
        is_image_safe: !flagged,
        seed,
        style_type: field('style_type') ?? 'GENERAL',
      });
    }
    sendJson(res, 200, { created: new Date().toISOString(), data });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    close: () => closeServer(server),
  };
}

/** A channel pointing at the fake, for provider tests. */
export function fakeIdeogramChannel(upstream: FakeIdeogramUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return {
    name: 'fake-ideogram',
    provider: 'ideogram',
    baseUrl: upstream.url,
    apiKey: FAKE_IDEOGRAM_KEY,
    headers: {},
    timeoutMs: 5_000,
    options: {},
    ...overrides,
  };
}

async function readMultipart(req: IncomingMessage): Promise<{ fields: Record<string, string[]>; files: Record<string, RecordedFile[]> }> {
  const contentType = req.headers['content-type'] ?? '';
  if (!contentType.startsWith('multipart/form-data')) throw new Refusal(400, 'the request must be multipart/form-data');
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    throw new Refusal(400, `malformed multipart body: ${String(error)}`);
  }
  const fields: Record<string, string[]> = {};
  const files: Record<string, RecordedFile[]> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      fields[name] ??= [];
      fields[name].push(value);
      continue;
    }
    const bytes = new Uint8Array(await value.arrayBuffer());
    const metadata = await sharp(bytes)
      .metadata()
      .catch(() => undefined);
    if (!metadata || !['png', 'jpeg', 'webp'].includes(metadata.format ?? '')) {
      throw new Refusal(400, `${name}: only JPEG, WebP and PNG formats are supported`);
    }
    files[name] ??= [];
    files[name].push({ filename: value.name, type: value.type, size: bytes.length, width: metadata.width!, height: metadata.height!, bytes });
  }
  return { fields, files };
}

function requireFile(files: Record<string, RecordedFile[]>, name: string): RecordedFile {
  const file = files[name]?.[0];
  if (!file) throw new Refusal(400, `${name}: file required`);
  return file;
}

function integerField(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || n > max) throw new Refusal(400, `${name}: must be an integer from ${min} to ${max}, got ${value}`);
  return n;
}

function outputSize(resolution: string | undefined, aspectRatio: string | undefined): { width: number; height: number } {
  if (resolution !== undefined && aspectRatio !== undefined) throw new Refusal(400, 'aspect_ratio cannot be used in conjunction with resolution');
  if (resolution !== undefined && !RESOLUTIONS.has(resolution)) throw new Refusal(400, `resolution: unsupported value ${resolution}`);
  const chosen = resolution ?? (aspectRatio === undefined ? '1024x1024' : FAKE_ASPECT_RESOLUTIONS[aspectRatio]);
  if (!chosen) throw new Refusal(400, `aspect_ratio: unsupported value ${aspectRatio}`);
  const [width, height] = chosen.split('x').map(Number);
  return { width, height };
}

async function rgbOf(bytes: Uint8Array, size: { width: number; height: number }, fit: 'fill' | 'cover'): Promise<Buffer> {
  return sharp(bytes).removeAlpha().toColourspace('srgb').resize(size.width, size.height, { fit }).raw().toBuffer();
}

async function png(rgb: Buffer, size: { width: number; height: number }): Promise<Buffer> {
  return sharp(rgb, { raw: { width: size.width, height: size.height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function solid(size: { width: number; height: number }, color: Rgb): Promise<Buffer> {
  return sharp({ create: { width: size.width, height: size.height, channels: 3, background: { r: color[0], g: color[1], b: color[2] } } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function mixWithColor(source: RecordedFile, size: { width: number; height: number }, weight: number): Promise<Buffer> {
  const rgb = await rgbOf(source.bytes, size, 'cover');
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.round(rgb[i] * weight + FAKE_REMIX_COLOR[i % 3] * (1 - weight));
  return png(rgb, size);
}

async function paintMaskedArea(source: RecordedFile, mask: RecordedFile): Promise<Buffer> {
  const size = { width: source.width, height: source.height };
  const rgb = await rgbOf(source.bytes, size, 'fill');
  const grey = await sharp(mask.bytes).removeAlpha().greyscale().raw().toBuffer();
  for (let p = 0; p < size.width * size.height; p++) {
    if (grey[p] < 128) rgb.set(FAKE_EDIT_COLOR, p * 3);
  }
  return png(rgb, size);
}

async function averageOf(references: RecordedFile[], size: { width: number; height: number }): Promise<Buffer> {
  const layers = await Promise.all(references.map((reference) => rgbOf(reference.bytes, size, 'fill')));
  const out = Buffer.alloc(size.width * size.height * 3);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(layers.reduce((sum, layer) => sum + layer[i], 0) / layers.length);
  return png(out, size);
}
