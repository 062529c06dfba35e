/**
 * One hostile request, generated from a seed alone (so any case can be replayed by its index):
 * a route, an attack class, and the bytes to send.
 */
import { controlAndPath } from './control-and-path.js';
import type { HostileImage } from './hostile-images.js';
import { hostileValue, malformedBody } from './hostile-values.js';
import { caseSeed, Random } from './random.js';
import { type Family, type ImageEncoding, type KeyPlace, ROUTES, type Route, withValidImages } from './routes.js';

export type Attack =
  | 'valid'
  | 'malformed JSON'
  | 'wrong value'
  | 'extra field'
  | 'image'
  | 'content type'
  | 'auth'
  | 'path'
  | 'method'
  | 'headers'
  | 'control and path';

export interface FuzzCase {
  index: number;
  route: Route;
  attack: Attack;
  /** What exactly was done, for the report. */
  detail: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The error shape an answer ≥ 400 must have. */
  family: Family;
  /** A model id under the wildcard channel's prefix: the case may call the fake upstream. */
  reachesUpstream?: boolean;
  /** A control character went into the body, path or query (control-and-path cases). */
  controlCharacters?: boolean;
}

export interface CaseContext {
  key: string;
  images: HostileImage[];
  /** Upper bound of one generated value; a few cases go up to `hugeBytes`. */
  maxValueBytes: number;
  hugeBytes: number;
  /** Only these attack classes (all when absent). */
  attacks?: readonly Attack[];
}

const ATTACKS: Array<[Attack, number]> = [
  ['valid', 8],
  ['malformed JSON', 12],
  ['wrong value', 30],
  ['extra field', 6],
  ['image', 10],
  ['content type', 8],
  ['auth', 10],
  ['path', 8],
  ['method', 4],
  ['headers', 4],
  ['control and path', 16],
];

export const ATTACK_NAMES: readonly string[] = ATTACKS.map(([name]) => name);

const EXTRA_FIELDS = [
  'model',
  'messages',
  'stream',
  'n',
  'tools',
  'tool_choice',
  'response_format',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'stop_sequences',
  'seed',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'input',
  'dimensions',
  'encoding_format',
  'size',
  'quality',
  'image',
  'mask',
  'images',
  'image_weight',
  'aspect_ratio',
  'resolution',
  'generationConfig',
  'safetySettings',
  'systemInstruction',
  'system',
  'thinking',
  'metadata',
  'stream_options',
  'contents',
  'content',
  'requests',
  'parts',
  'prompt',
  'num_images',
  'style_type',
  'user',
  'service_tier',
  '__proto__',
];

function pickWeighted<T>(random: Random, items: Array<[T, number]>): T {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.next() * total;
  for (const [item, weight] of items) {
    roll -= weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1][0];
}

const PLACEHOLDER = '\u0001FUZZ\u0001';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** Every place in a JSON value where another value can go: existing members and elements. */
function slots(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const here = path.length > 0 ? [path] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => slots(item, [...path, i]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([k, v]) => slots(v, [...path, k]))];
  return here;
}

function setAt(root: Record<string, unknown>, path: Array<string | number>, value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
}

function jsonWithRaw(body: Record<string, unknown>, path: Array<string | number>, raw: string): string {
  const copy = structuredClone(body);
  setAt(copy, path, PLACEHOLDER);
  return JSON.stringify(copy).replace(PLACEHOLDER_JSON, () => raw);
}

export function keyHeaders(place: KeyPlace, key: string): { headers: Record<string, string>; query?: string } {
  switch (place) {
    case 'bearer':
      return { headers: { authorization: `Bearer ${key}` } };
    case 'x-api-key':
      return { headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } };
    case 'x-goog-api-key':
      return { headers: { 'x-goog-api-key': key } };
    case 'query-key':
      return { headers: {}, query: `key=${encodeURIComponent(key)}` };
    case 'api-key':
      return { headers: { 'api-key': key } };
    case 'token':
      return { headers: { authorization: `Token ${key}` } };
    case 'mj-api-secret':
      return { headers: { 'mj-api-secret': key } };
    default:
      return { headers: {} };
  }
}

function withQuery(path: string, query: string | undefined): string {
  if (!query) return path;
  return path.includes('?') ? `${path}&${query}` : `${path}?${query}`;
}

/**
 * The error shape an answer must have: the family of the route the path and method match (as
 * Fastify matches them: case-sensitive, no trailing slash, no dot segments), and for paths that
 * match nothing, the family of the path's prefix as docs/architecture.md states it: Gemini under
 * `/v1beta`, Anthropic under `/v1/messages`, imagegen2 under `/imagegen2`, imagegen1 under
 * `/imagegen1`, imgtask under `/imgtask` and `/mj`, videogen1 under `/videogen1`, videogen3 under `/videogen3`, the admin API's
 * under `/admin`, none under `/dashboard` (plain text for a browser), OpenAI elsewhere
 * (`/videogen2` and `/v1/video/generations` answer in OpenAI's shape).
 * `/v1/models` answers in the dialect its headers suggest (docs/architecture.md).
 */
export function familyOf(method: string, path: string, headers: Record<string, string>): Family {
  const pathOnly = path.split('?')[0];
  if (method === 'POST') {
    if (/^\/v1\/(chat\/completions|embeddings|images\/generations|images\/edits)$/.test(pathOnly)) return 'openai';
    if (/^\/v1\/messages(\/count_tokens)?$/.test(pathOnly)) return 'anthropic';
    if (/^\/v1beta\/models\/[^/]+$/.test(pathOnly)) return 'gemini';
    // `/v1/models/{id}` without an action is the shared model route: the caller's dialect.
    if (/^\/v1\/models\/[^/]*$/.test(pathOnly)) return hasAction(pathOnly) ? 'gemini' : modelsFamily(path, headers);
    if (/^\/imagegen2\/(remix|edit|remix-image)$/.test(pathOnly)) return 'imagegen2';
    if (/^\/imagegen1\/(create|task\/[^/]+\/cancel)$/.test(pathOnly)) return 'imagegen1';
    if (/^\/(imgtask|mj)\/(submit\/(imagine|blend|describe|action)|task\/list-by-condition|task\/[^/]+\/cancel)$/.test(pathOnly)) return 'imgtask';
    if (pathOnly === '/videogen1/video') return 'videogen1';
    if (pathOnly === '/videogen3/generate') return 'videogen3';
  }
  if (method === 'GET' || method === 'HEAD') {
    if (pathOnly === '/healthz' || pathOnly === '/metrics') return 'none';
    if (/^\/v1\/models(\/[^/]*)?$/.test(pathOnly)) return modelsFamily(path, headers);
    if (/^\/v1beta\/models(\/[^/]+)?$/.test(pathOnly)) return 'gemini';
    if (/^\/imagegen1\/task\/[^/]+$/.test(pathOnly)) return 'imagegen1';
    if (/^\/(imgtask|mj)\/task\/[^/]+\/(fetch|image-seed)$/.test(pathOnly)) return 'imgtask';
    if (/^\/videogen1\/video\/[^/]+$/.test(pathOnly)) return 'videogen1';
    if (/^\/videogen3\/task\/[^/]+$/.test(pathOnly)) return 'videogen3';
  }
  const under = (prefix: string) => pathOnly === prefix || pathOnly.startsWith(`${prefix}/`);
  if (under('/v1beta')) return 'gemini';
  if (pathOnly.startsWith('/v1/models/') && hasAction(pathOnly)) return 'gemini';
  if (under('/v1/messages')) return 'anthropic';
  if (under('/imagegen2')) return 'imagegen2';
  if (under('/imagegen1')) return 'imagegen1';
  if (under('/imgtask') || under('/mj')) return 'imgtask';
  if (under('/videogen1')) return 'videogen1';
  if (under('/videogen3')) return 'videogen3';
  if (under('/admin')) return 'admin';
  // The dashboard's files answer a browser in plain text, never in an API's error shape.
  if (under('/dashboard')) return 'none';
  return 'openai';
}

/** Whether what follows `/v1/models/` names a Gemini action (`model:action`, the colon possibly escaped, anywhere in the rest, as src/http/error-family.ts reads it). */
function hasAction(pathOnly: string): boolean {
  const rest = pathOnly.slice('/v1/models/'.length);
  return rest.includes(':') || /%3a/i.test(rest);
}

function modelsFamily(path: string, headers: Record<string, string>): Family {
  const query = path.includes('?') ? new URLSearchParams(path.slice(path.indexOf('?') + 1)) : undefined;
  if (headers['x-goog-api-key'] !== undefined || query?.has('key')) return 'gemini';
  if (headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined) return 'anthropic';
  return 'openai';
}

function multipartBody(fields: Record<string, unknown>, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const isImage = value !== null && typeof value === 'object' && 'bytes' in (value as object) && Buffer.isBuffer((value as HostileImage).bytes);
    if (isImage) {
      const image = value as HostileImage;
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="f.png"\r\nContent-Type: ${image.mediaType}\r\n\r\n`));
      parts.push(image.bytes, Buffer.from('\r\n'));
    } else {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';

export function generateCase(runSeed: number, index: number, context: CaseContext): FuzzCase {
  const random = new Random(caseSeed(runSeed, index));
  const route = random.pick(ROUTES);
  const attacks = context.attacks;
  let attack = pickWeighted(random, attacks ? ATTACKS.filter(([name]) => attacks.includes(name)) : ATTACKS);
  if (attack === 'image' && !route.imageSlots) attack = 'wrong value';
  if ((attack === 'malformed JSON' || attack === 'wrong value' || attack === 'extra field' || attack === 'content type') && !route.body) attack = 'path';
  const tiny = context.images[0];
  const maxBytes = random.chance(0.02) ? context.hugeBytes : context.maxValueBytes;

  const body = route.body ? route.body() : undefined;
  if (body) withValidImages(route, body, tiny);
  const keyPlace = route.keyPlaces[0];
  const auth = keyHeaders(keyPlace, context.key);
  let headers: Record<string, string> = { ...auth.headers };
  let path = withQuery(route.path, auth.query);
  let method: string = route.method;
  let detail = '';
  let bodyText: string | undefined;
  let bodyBytes: Buffer | undefined;
  let reachesUpstream = false;
  let controlCharacters = false;

  switch (attack) {
    case 'valid':
      detail = 'a valid request';
      break;
    case 'malformed JSON': {
      const malformed = malformedBody(random, JSON.stringify(body));
      bodyBytes = malformed.body;
      detail = `body ${JSON.stringify(bodyBytes.subarray(0, 60).toString('latin1'))}${bodyBytes.length > 60 ? '…' : ''} (${bodyBytes.length} B)`;
      break;
    }
    case 'wrong value': {
      const places = slots(body);
      const at = places.length > 0 ? random.pick(places) : ['input'];
      const value = hostileValue(random, maxBytes);
      bodyText = jsonWithRaw(body!, at, value.text);
      detail = `${value.kind} at ${at.join('.')}: ${value.text.slice(0, 60)}${value.text.length > 60 ? '…' : ''} (${value.text.length} B)`;
      break;
    }
    case 'extra field': {
      const name = random.pick(EXTRA_FIELDS);
      const value = hostileValue(random, maxBytes);
      const copy = structuredClone(body!);
      copy[name] = PLACEHOLDER;
      bodyText = JSON.stringify(copy).replace(PLACEHOLDER_JSON, () => value.text);
      detail = `${value.kind} as "${name}": ${value.text.slice(0, 60)}${value.text.length > 60 ? '…' : ''}`;
      break;
    }
    case 'image': {
      const image = random.pick(context.images);
      const encoding = random.pick<ImageEncoding>(['base64', 'data-url', 'base64', 'data-url', 'private-url', 'bad-url']);
      const slot = random.pick(route.imageSlots!);
      slot(body!, image, encoding);
      detail = `${image.name} (${image.bytes.length} B) as ${encoding}`;
      break;
    }
    case 'content type': {
      const type = random.pick([
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        `multipart/form-data; boundary=${BOUNDARY}`,
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/jsonx',
        'application/octet-stream',
        'image/png',
        'application/json, text/html',
        `application/json; ${'a=b; '.repeat(1000)}`,
        'APPLICATION/JSON',
        '',
      ]);
      headers['content-type'] = type as string;
      if (type === undefined) delete headers['content-type'];
      detail = `content-type ${JSON.stringify(type ?? '(none)').slice(0, 80)}`;
      break;
    }
    case 'auth': {
      const choice = random.int(0, 9);
      headers = {};
      path = route.path;
      const others = (['bearer', 'x-api-key', 'x-goog-api-key', 'query-key', 'api-key', 'token', 'mj-api-secret'] as KeyPlace[]).filter(
        (p) => !route.keyPlaces.includes(p),
      );
      const wrong = `gg-${'x'.repeat(random.int(1, 60))}`;
      const variants: Array<[string, () => void]> = [
        ['no key', () => {}],
        ['a wrong key', () => Object.assign(headers, keyHeaders(keyPlace, wrong).headers, { __q: keyHeaders(keyPlace, wrong).query ?? '' })],
        [
          'the key in a place this dialect does not use',
          () => {
            const place = others.length > 0 ? random.pick(others) : 'none';
            const moved = keyHeaders(place, context.key);
            Object.assign(headers, moved.headers, { __q: moved.query ?? '' });
          },
        ],
        ['Bearer with no token', () => (headers.authorization = 'Bearer ')],
        ['Basic auth', () => (headers.authorization = `Basic ${Buffer.from(`user:${context.key}`).toString('base64')}`)],
        ['lower-case bearer and spaces', () => (headers.authorization = `bearer    ${context.key}   `)],
        ['a 16 KB key', () => Object.assign(headers, keyHeaders(keyPlace, `gg-${'a'.repeat(16_000)}`).headers)],
        ['a key with unicode', () => Object.assign(headers, { __q: `key=${encodeURIComponent(`gg-ключ-${'é'.repeat(40)}`)}` })],
        ['a key in the body', () => Object.assign(body ?? {}, { api_key: context.key, key: context.key })],
        [
          'the key twice, different',
          () => Object.assign(headers, keyHeaders(keyPlace, context.key).headers, { authorization: `Bearer ${wrong}`, 'x-api-key': wrong }),
        ],
      ];
      const [name, apply] = variants[choice];
      apply();
      if (headers.__q !== undefined) {
        path = withQuery(path, headers.__q);
        delete headers.__q;
      }
      detail = name;
      break;
    }
    case 'path': {
      const base = route.path.split('?')[0];
      const tricks: Array<[string, () => string]> = [
        ['trailing slash', () => `${base}/`],
        ['double slashes', () => base.replace(/\//g, '//')],
        ['dot segments', () => `/v1/../${base.slice(1)}`],
        ['encoded dot segments', () => `/v1/%2e%2e/${base.slice(1)}`],
        ['encoded slash', () => base.replace(/\/([^/]*)$/, '%2F$1')],
        ['upper case', () => base.toUpperCase()],
        ['matrix parameter', () => `${base};jsessionid=1`],
        ['bad percent-encoding', () => `${base}%`],
        ['encoded NUL', () => `${base}%00`],
        ['a 8 KB path', () => `${base}/${'a'.repeat(8_000)}`],
        ['a 100 KB query', () => `${base}?${'a=1&'.repeat(25_000)}`],
        ['repeated query keys', () => `${base}?key=a&key=b&alt=sse&alt=json&alt=`],
        ['media traversal', () => `/media/..%2f..%2fetc%2fpasswd`],
        [
          'media odd name',
          () => random.pick(['/media/', '/media/.png', `/media/${'f'.repeat(5000)}.png`, '/media/%00.png', '/media/a.png/x', '/media/%F0%9F%98%80']),
        ],
        [
          'gemini model action tricks',
          () =>
            random.pick([
              '/v1beta/models/:generateContent',
              '/v1beta/models/x:',
              '/v1beta/models/a:b:c',
              '/v1beta/models/textmodel-c-2.0-flash:constructor',
              '/v1beta/models/textmodel-c-2.0-flash:__proto__',
              '/v1beta/models/textmodel-c-2.0-flash%3AgenerateContent',
              `/v1beta/models/${'m'.repeat(10_000)}:generateContent`,
              '/v1beta/models/%F0%9F%98%80:generateContent',
              '/v1/models/textmodel-c-2.0-flash:countTokens',
              '/v1beta/models/textmodel-c-2.0-flash:streamGenerateContent?alt=',
            ]),
        ],
        [
          'unknown route',
          () =>
            random.pick([
              '/',
              '/v1',
              '/v1/',
              '/v1/completions',
              '/v1/responses',
              '/admin',
              '/imagegen2/',
              '/imagegen2/generate',
              '/imagegen1/',
              '/imagegen1/task/',
              '/videogen1/',
              '/videogen1/video/',
              '/videogen3/task/',
              '/v1/video/generations/',
              '/v1/videos/',
              '/v1/videos//download',
              '/v1/videos/x/y/download',
              '/.env',
            ]),
        ],
      ];
      const [name, make] = random.pick(tricks);
      const keyed = keyHeaders(keyPlace, context.key);
      path = withQuery(make(), keyed.query);
      detail = `${name}: ${path.slice(0, 80)}${path.length > 80 ? '…' : ''}`;
      break;
    }
    case 'control and path': {
      const fields = route.optionalFields?.();
      if (body && fields) Object.assign(body, fields);
      const hostile = controlAndPath(random, route, body);
      Object.assign(headers, hostile.headers);
      path = withQuery(hostile.path, auth.query);
      reachesUpstream = hostile.reachesUpstream;
      controlCharacters = hostile.controlCharacters;
      detail = hostile.detail;
      break;
    }
    case 'method': {
      method = random.pick(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', route.method === 'GET' ? 'POST' : 'GET']);
      detail = `${method} ${route.path}`;
      if (method === 'GET' || method === 'HEAD') bodyBytes = undefined;
      break;
    }
    default: {
      const tricks: Array<[string, Record<string, string>]> = [
        ['accept-encoding gzip', { 'accept-encoding': 'gzip, deflate, br' }],
        ['content-encoding gzip on a plain body', { 'content-encoding': 'gzip' }],
        ['unknown content-encoding', { 'content-encoding': 'x-fuzz' }],
        ['a 7 KB header', { 'x-fuzz': 'a'.repeat(7_000) }],
        ['anthropic-version junk', { 'anthropic-version': '\u00ff'.repeat(10), 'anthropic-beta': 'a,'.repeat(1000) }],
        ['x-forwarded headers', { 'x-forwarded-for': '1.2.3.4, 127.0.0.1', 'x-forwarded-host': 'evil.invalid', 'x-forwarded-proto': 'gopher' }],
        ['forged host and forwarded-for', { host: 'evil.example', 'x-forwarded-for': '203.0.113.9, 198.51.100.1, 127.0.0.1' }],
        ['host with a path and user info', { host: 'user@evil.example/x?y' }],
        ['accept text/html', { accept: 'text/html' }],
        ['x-request-id junk', { 'x-request-id': `${'r'.repeat(2000)}` }],
        ['range and condition junk', { range: `bytes=${'0-1,'.repeat(300)}`, 'if-none-match': '"'.repeat(101), 'if-range': 'W/"x"' }],
        ['a range past any file', { range: `bytes=${'9'.repeat(40)}-`, 'if-none-match': '*' }],
      ];
      const [name, extra] = random.pick(tricks);
      Object.assign(headers, extra);
      detail = name;
    }
  }

  if (route.method === 'POST' && method !== 'GET' && method !== 'HEAD') {
    if (bodyBytes === undefined && bodyText === undefined && body) {
      if (route.multipart && attack !== 'content type') {
        bodyBytes = multipartBody(body, BOUNDARY);
        headers['content-type'] ??= `multipart/form-data; boundary=${BOUNDARY}`;
      } else {
        bodyText = JSON.stringify(body);
      }
    }
    if (bodyText !== undefined) bodyBytes = Buffer.from(bodyText);
    if (!('content-type' in headers) && attack !== 'content type') headers['content-type'] = 'application/json';
  }
  return { index, route, attack, detail, method, path, headers, body: bodyBytes, family: familyOf(method, path, headers), reachesUpstream, controlCharacters };
}
