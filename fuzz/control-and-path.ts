/**
 * The control-and-path attack: one string the gateway may carry into a provider URL, a header or
 * a database row — a string leaf of the route's valid body (walked generically, so new fields are
 * covered), a path segment (model ids, `model:action`, task ids), a query value, or a client
 * header the gateway reads — replaced by a value holding control characters (NUL, C0, DEL, C1,
 * U+2028, lone surrogates, CR/LF) or path characters (`/`, `../`, `%2F`, `%2e%2e`, `?`, `#`, `\`).
 * A model id is sometimes put under the wildcard channel's prefix (`wildcard-upstream.ts`), so
 * that it is admitted and reaches an upstream URL and a usage row.
 */
import type { Random } from './random.js';
import type { Route } from './routes.js';
import { WILDCARD_MODEL_PREFIX } from './wildcard-upstream.js';

/** Bound of the body walk: string leaves considered per body. */
export const MAX_STRING_LEAVES = 32;

const PIECES: ReadonlyArray<[string, string]> = [
  // NUL three times: the one character PostgreSQL refuses in a row.
  ['NUL', '\u0000'],
  ['NUL inside', 'a\u0000b'],
  ['NULs', '\u0000\u0000'],
  ['SOH', '\u0001'],
  ['BEL', '\u0007'],
  ['backspace', '\b'],
  ['tab', '\t'],
  ['escape sequence', '\u001b[31m'],
  ['unit separator', '\u001f'],
  ['DEL', '\u007f'],
  ['C1 NEL', '\u0085'],
  ['C1 CSI', '\u009b'],
  ['line separator', '\u2028'],
  ['lone high surrogate', '\ud800'],
  ['lone low surrogate', '\udfff'],
  ['CRLF header injection', '\r\nX-Injected: 1'],
  ['LF', '\n'],
  ['CR', '\r'],
  ['slash', '/'],
  ['dot-dot slash', '../'],
  ['traversal to another method', '/../../../v1beta/cachedContents?'],
  ['dot-dot', '..'],
  ['encoded slash', '%2F'],
  ['encoded dot-dot', '%2e%2e'],
  ['encoded dot-dot slash', '%2e%2e%2f'],
  ['encoded NUL', '%00'],
  ['question mark', '?'],
  ['query', '?alt=json&key=x'],
  ['hash', '#'],
  ['fragment', '#x'],
  ['backslash', '\\'],
  ['backslash traversal', '..\\..\\'],
  ['colon', ':'],
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const CONTROL = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/;

/** Header values travel as latin1 without controls other than tab (anything else the HTTP client refuses to send). */
const headerSendable = (value: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(value);

/** Client headers the gateway reads, forwards or stores. */
const HEADERS = ['user-agent', 'anthropic-version', 'anthropic-beta', 'x-request-id'];

/** Query parameters a listing or filter may read, added when the route has none of its own. */
const EXTRA_QUERY = ['model', 'cursor', 'after', 'keyId', 'accountId', 'status', 'from', 'variant', 'alt'];

type Target =
  | { kind: 'body'; path: Array<string | number>; original: string; model: boolean }
  | { kind: 'path'; segment: number; original: string; model: boolean; action?: string }
  | { kind: 'query'; name: string; original: string; added: boolean }
  | { kind: 'header'; name: string; original: string };

/** Paths to the string leaves of a JSON value, depth first, at most `MAX_STRING_LEAVES`. */
export function stringLeaves(value: unknown, at: Array<string | number> = [], found: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (found.length >= MAX_STRING_LEAVES) return found;
  if (typeof value === 'string') found.push(at);
  else if (Array.isArray(value)) value.forEach((item, i) => stringLeaves(item, [...at, i], found));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) stringLeaves(item, [...at, key], found);
  return found;
}

function getAt(root: unknown, path: Array<string | number>): unknown {
  return path.reduce<unknown>((node, step) => (node as Record<string | number, unknown>)[step], root);
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]] = value;
}

/** A path segment names something (an id, a model, a file) unless it is a short plain word or an API version. */
const isParameterSegment = (segment: string) => !/^[a-z]{1,9}$/.test(segment) && !/^v\d+(beta)?$/.test(segment);

/** Every string target of the route: one header and one added query parameter stand for their lists. */
function targetsOf(random: Random, route: Route, body: Record<string, unknown> | undefined): Target[] {
  const targets: Target[] = [];
  if (body && !route.multipart) {
    for (const path of stringLeaves(body))
      targets.push({ kind: 'body', path, original: getAt(body, path) as string, model: path[path.length - 1] === 'model' });
  } else if (body) {
    for (const [name, value] of Object.entries(body))
      if (typeof value === 'string') targets.push({ kind: 'body', path: [name], original: value, model: name === 'model' });
  }
  const [pathname, query] = route.path.split('?');
  pathname.split('/').forEach((segment, index) => {
    if (index < 2 || !isParameterSegment(segment)) return;
    const colon = segment.indexOf(':');
    if (colon > 0) targets.push({ kind: 'path', segment: index, original: segment.slice(0, colon), model: true, action: segment.slice(colon) });
    else targets.push({ kind: 'path', segment: index, original: segment, model: pathname.startsWith('/v1/models/') || pathname.startsWith('/v1beta/models/') });
  });
  const params = query ? query.split('&').map((pair) => pair.split('=')) : [];
  for (const [name, value] of params) targets.push({ kind: 'query', name, original: decodeURIComponent(value ?? ''), added: false });
  targets.push({ kind: 'query', name: random.pick(EXTRA_QUERY), original: 'fuzz', added: true });
  const header = random.pick(HEADERS);
  targets.push({ kind: 'header', name: header, original: header === 'anthropic-version' ? '2023-06-01' : 'fuzz' });
  return targets;
}

/** UTF-8 percent-encoding that also encodes a lone surrogate (as the three bytes a careless encoder would write). `keep` leaves printable ASCII as is. */
export function percentEncode(value: string, keep: boolean): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (keep && code > 0x20 && code < 0x7f) out += char;
    else if (/^[A-Za-z0-9\-._~]$/.test(char)) out += char;
    else if (code >= 0xd800 && code <= 0xdfff)
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    else out += [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

export interface ControlAndPathAttack {
  /** The request path with its query (the key's query parameter is added by the caller). */
  path: string;
  /** Headers to add. */
  headers: Record<string, string>;
  /** Whether the model id is under the wildcard channel's prefix: the case may reach the fake upstream. */
  reachesUpstream: boolean;
  /** Whether a control character (or `%00` in the path or query) went into the body, the path or the query: the kind of value a database may refuse. */
  controlCharacters: boolean;
  detail: string;
}

/** Puts one hostile value into one target; `body` (a fresh copy) is changed in place. */
export function controlAndPath(random: Random, route: Route, body: Record<string, unknown> | undefined): ControlAndPathAttack {
  const targets = targetsOf(random, route, body);
  // The model id above all: it reaches an upstream URL, headers and every usage row.
  const models = targets.filter((t) => (t.kind === 'body' || t.kind === 'path') && t.model);
  const target = models.length > 0 && random.chance(0.5) ? random.pick(models) : random.pick(targets);
  const pieces = target.kind === 'header' ? PIECES.filter(([, piece]) => headerSendable(piece)) : PIECES;
  const [pieceName, piece] = random.pick(pieces);
  const wildcard = (target.kind === 'body' || target.kind === 'path') && target.model && random.chance(0.6);
  const base = wildcard ? `${target.original.startsWith('models/') ? 'models/' : ''}${WILDCARD_MODEL_PREFIX}x` : target.original;
  // Under the wildcard channel the value keeps its prefix, so that the channel admits it.
  const placement = wildcard ? 'suffix' : random.pick(['suffix', 'suffix', 'prefix', 'middle', 'whole'] as const);
  const middle = Math.floor(base.length / 2);
  const value =
    placement === 'suffix'
      ? `${base}${piece}`
      : placement === 'prefix'
        ? `${piece}${base}`
        : placement === 'middle'
          ? `${base.slice(0, middle)}${piece}${base.slice(middle)}`
          : piece;
  const [pathname, query = ''] = route.path.split('?');
  let path = route.path;
  const headers: Record<string, string> = {};
  let where: string;
  let encoding = '';
  switch (target.kind) {
    case 'body':
      setAt(body, target.path, value);
      where = `body ${target.path.join('.')}`;
      break;
    case 'path': {
      const raw = random.chance(0.5);
      encoding = raw ? ', raw' : ', percent-encoded';
      const segments = pathname.split('/');
      segments[target.segment] = percentEncode(value, raw) + (target.action ?? '');
      path = segments.join('/') + (query ? `?${query}` : '');
      where = target.action ? 'path model' : `path segment ${target.segment}`;
      break;
    }
    case 'query': {
      const raw = random.chance(0.3);
      encoding = raw ? ', raw' : ', percent-encoded';
      const encoded = `${target.name}=${percentEncode(value, raw)}`;
      const rest = query
        .split('&')
        .filter((pair) => pair !== '' && pair.split('=')[0] !== target.name)
        .join('&');
      path = `${pathname}?${[rest, encoded].filter(Boolean).join('&')}`;
      where = `query ${target.name}`;
      break;
    }
    default:
      headers[target.name] = value;
      where = `header ${target.name}`;
  }
  const shown = JSON.stringify(value);
  return {
    path,
    headers,
    reachesUpstream: wildcard,
    controlCharacters: target.kind !== 'header' && (CONTROL.test(value) || (target.kind !== 'body' && value.includes('%00'))),
    // The part before the colon names the finding's group: where, and what.
    detail: `${where} ← ${pieceName}${wildcard ? ' under the wildcard channel' : ''}: ${shown.slice(0, 80)}${shown.length > 80 ? '…' : ''} (${placement}${encoding})`,
  };
}
