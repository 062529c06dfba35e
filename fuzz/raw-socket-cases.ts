/**
 * What an HTTP client library will not send: truncated and stalled bodies, slow headers
 * (slowloris), bodies declared over the limit, malformed framing. Sent over raw sockets to
 * 127.0.0.1, each bounded in time.
 */
import { connect, type Socket } from 'node:net';

export interface RawOutcome {
  /** The status line's code, when an answer came. */
  status?: number;
  /** Milliseconds until the gateway answered or closed the connection; undefined when it did neither. */
  closedAfterMs?: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawCase {
  name: string;
  /** Bytes to write, in order, with a pause (ms) before each. */
  steps: Array<{ delayMs: number; bytes: Buffer }>;
  /** Half-close after the last step. */
  end: boolean;
  /** How long to wait for the gateway after the last step. */
  waitMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parseResponse(raw: Buffer): Pick<RawOutcome, 'status' | 'headers' | 'body'> {
  const text = raw.toString('latin1');
  const head = text.indexOf('\r\n\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!match) return { headers: {}, body: '' };
  const headers: Record<string, string> = {};
  for (const line of text
    .slice(0, head < 0 ? text.length : head)
    .split('\r\n')
    .slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = head < 0 ? '' : raw.subarray(Buffer.byteLength(text.slice(0, head + 4), 'latin1')).toString('utf8');
  return { status: Number(match[1]), headers, body };
}

export async function sendRaw(port: number, rawCase: RawCase): Promise<RawOutcome> {
  const socket: Socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  const started = Date.now();
  let closedAt: number | undefined;
  let answeredAt: number | undefined;
  socket.on('data', (chunk) => {
    chunks.push(chunk);
    answeredAt ??= Date.now();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  void closed.then(() => (closedAt = Date.now()));
  await new Promise<void>((resolve) => {
    socket.once('connect', resolve);
    socket.once('error', resolve);
  });
  for (const step of rawCase.steps) {
    if (step.delayMs > 0) await sleep(step.delayMs);
    if (closedAt !== undefined || socket.destroyed) break;
    socket.write(step.bytes);
  }
  if (rawCase.end && !socket.destroyed) socket.end();
  const settled = await Promise.race([closed.then(() => true), sleep(rawCase.waitMs).then(() => false)]);
  socket.destroy();
  const parsed = parseResponse(Buffer.concat(chunks));
  const doneAt = answeredAt ?? (settled ? closedAt : undefined);
  return { ...parsed, closedAfterMs: doneAt === undefined ? undefined : doneAt - started };
}

const CHAT_BODY = Buffer.from(JSON.stringify({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 }));

function head(path: string, key: string, extra: string[] = []): string {
  return [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`, 'Content-Type: application/json', ...extra, '', ''].join('\r\n');
}

/** Cases that must be answered (or closed) promptly; each takes a few seconds at most. */
export function promptRawCases(key: string): RawCase[] {
  const once = (text: string | Buffer, end = true, waitMs = 5_000): RawCase => ({
    name: '',
    steps: [{ delayMs: 0, bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1') }],
    end,
    waitMs,
  });
  const cases: Array<[string, RawCase]> = [
    ['truncated body, then half-close', once(head('/v1/chat/completions', key, ['Content-Length: 1000']) + CHAT_BODY.toString().slice(0, 40))],
    ['body declared over the limit', once(`${head('/v1/chat/completions', key, ['Content-Length: 60000000'])}{"model":`, false)],
    ['garbage request line', once('GARBAGE\r\n\r\n')],
    ['malformed chunk size', once(`${head('/v1/chat/completions', key, ['Transfer-Encoding: chunked'])}zz\r\n{}\r\n0\r\n\r\n`)],
    [
      'both Content-Length and Transfer-Encoding',
      once(`${head('/v1/embeddings', key, ['Content-Length: 4', 'Transfer-Encoding: chunked'])}0\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n`),
    ],
    ['control character in the path', once(`GET /v1/models/\u0001x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)],
    ['header line without a colon', once(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n`)],
    ['a 64 KB header', once(`GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(65_536)}\r\n\r\n`)],
    ['HTTP/0.9 request', once('GET /healthz\r\n\r\n')],
    ['absolute-form target to another host', once('GET http://169.254.169.254/latest HTTP/1.1\r\nHost: 169.254.169.254\r\n\r\n')],
    ['CONNECT', once('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n')],
    [
      'invalid UTF-8 in a header',
      once(
        Buffer.concat([
          Buffer.from('GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer '),
          Buffer.from([0xff, 0xfe, 0x80]),
          Buffer.from('\r\n\r\n'),
        ]),
      ),
    ],
    [
      'body trickled byte by byte (valid, slow)',
      {
        name: '',
        steps: [
          { delayMs: 0, bytes: Buffer.from(head('/v1/chat/completions', key, [`Content-Length: ${CHAT_BODY.length}`])) },
          ...[...CHAT_BODY].map((byte) => ({ delayMs: 25, bytes: Buffer.from([byte]) })),
        ],
        end: false,
        waitMs: 10_000,
      },
    ],
  ];
  return cases.map(([name, rawCase]) => ({ ...rawCase, name }));
}

/** Connections that never finish their request: the gateway must cut them, not keep them forever. */
export function stalledRawCases(key: string, holdMs: number): RawCase[] {
  const headerLines = Math.max(1, Math.floor(holdMs / 1_000));
  return [
    {
      name: 'slow headers (slowloris)',
      steps: [
        { delayMs: 0, bytes: Buffer.from('POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n') },
        ...Array.from({ length: headerLines }, (_, i) => ({ delayMs: 1_000, bytes: Buffer.from(`X-Slow-${i}: a\r\n`) })),
      ],
      end: false,
      waitMs: 100,
    },
    {
      name: 'stalled body',
      steps: [{ delayMs: 0, bytes: Buffer.from(`${head('/v1/chat/completions', key, ['Content-Length: 100000'])}{"model":"textmodel-b-4o-mini",`) }],
      end: false,
      waitMs: holdMs,
    },
  ];
}
