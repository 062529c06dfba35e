/**
 * A fast fake upstream speaking OpenAI (chat, embeddings), Anthropic (messages) and Gemini
 * (generateContent, streamGenerateContent, embedContent, batchEmbedContents), JSON and SSE.
 * Answers are precomputed bytes; a request costs a route lookup, a key check and a regex
 * over its (small) body. Streams are paced with timers.
 *
 * Timing: `latencyMs` passes before the response headers (the whole answer when not
 * streaming); a stream then waits `ttftMs` before its first token and sends `tps` tokens per
 * second (0 = all at once). `size` is the number of text tokens in every answer.
 *
 * Run alone: `tsx bench/mock-upstream.ts --port 0 --latency 0 --ttft 0 --tps 0 --size 64`;
 * it prints one JSON line `{"port":N}` once listening.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildMockResponses, type MockResponses, type StreamBytes } from './mock-responses.js';

export interface MockOptions {
  latencyMs: number;
  ttftMs: number;
  tps: number;
  size: number;
  embeddingDims: number;
  /** The only API key the mock accepts; anything else gets the dialect's 401. */
  apiKey: string;
}

export const DEFAULT_MOCK_OPTIONS: MockOptions = { latencyMs: 0, ttftMs: 0, tps: 0, size: 64, embeddingDims: 1536, apiKey: 'x' };

export interface RunningMock {
  port: number;
  responses: MockResponses;
  close(): Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json', 'x-request-id': 'req_benchmock' };
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-request-id': 'req_benchmock' };
const STREAM_TRUE = /"stream"\s*:\s*true/;
const INCLUDE_USAGE = /"include_usage"\s*:\s*true/;
const BASE64_ENCODING = /"encoding_format"\s*:\s*"base64"/;

const ERRORS = {
  openai401: Buffer.from(
    JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }),
  ),
  anthropic401: Buffer.from(
    JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: 'req_benchmock' }),
  ),
  gemini401: Buffer.from(JSON.stringify({ error: { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' } })),
  notFound: Buffer.from(JSON.stringify({ error: { message: 'no such route on the mock upstream', type: 'not_found', code: 404 } })),
};

type Dialect = 'openai' | 'anthropic' | 'gemini';

export function createMockServer(options: MockOptions): { server: Server; responses: MockResponses } {
  const responses = buildMockResponses({ size: options.size, embeddingDims: options.embeddingDims });
  const bearer = `Bearer ${options.apiKey}`;
  const tokenGapMs = options.tps > 0 ? 1000 / options.tps : 0;

  const authorized = (request: IncomingMessage, dialect: Dialect, url: string): boolean => {
    const headers = request.headers;
    if (dialect === 'openai') return headers.authorization === bearer;
    if (dialect === 'anthropic') return headers['x-api-key'] === options.apiKey || headers.authorization === bearer;
    return headers['x-goog-api-key'] === options.apiKey || url.includes(`key=${options.apiKey}`);
  };

  const sendJson = (response: ServerResponse, status: number, body: Buffer): void => {
    const send = (): void => {
      response.writeHead(status, { ...JSON_HEADERS, 'content-length': body.length });
      response.end(body);
    };
    if (options.latencyMs > 0 && status === 200) setTimeout(send, options.latencyMs);
    else send();
  };

  const sendStream = (response: ServerResponse, stream: StreamBytes): void => {
    let index = 0;
    let timer: NodeJS.Timeout | undefined;
    response.once('close', () => clearTimeout(timer));
    const finish = (): void => {
      response.end(stream.tail);
    };
    const next = (): void => {
      if (response.destroyed) return;
      response.write(stream.tokens[index++]);
      if (index < stream.tokens.length) timer = setTimeout(next, tokenGapMs);
      else finish();
    };
    const start = (): void => {
      response.writeHead(200, SSE_HEADERS);
      if (stream.head.length > 0) response.write(stream.head);
      if (tokenGapMs === 0 && options.ttftMs === 0) {
        for (const token of stream.tokens) response.write(token);
        finish();
        return;
      }
      if (stream.tokens.length === 0) return finish();
      if (tokenGapMs === 0) {
        timer = setTimeout(() => {
          for (const token of stream.tokens) response.write(token);
          finish();
        }, options.ttftMs);
        return;
      }
      timer = setTimeout(next, options.ttftMs);
    };
    if (options.latencyMs > 0) timer = setTimeout(start, options.latencyMs);
    else start();
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: string): void => {
    const url = request.url ?? '/';
    const path = url.split('?', 1)[0];
    if (request.method === 'GET' && path === '/healthz') return sendJson(response, 200, Buffer.from('{"ok":true}'));
    if (request.method !== 'POST') return sendJson(response, 404, ERRORS.notFound);

    if (path === '/v1/chat/completions') {
      if (!authorized(request, 'openai', url)) return sendJson(response, 401, ERRORS.openai401);
      if (!STREAM_TRUE.test(body)) return sendJson(response, 200, responses.openaiChat);
      return sendStream(response, INCLUDE_USAGE.test(body) ? responses.openaiStreamWithUsage : responses.openaiStream);
    }
    if (path === '/v1/embeddings') {
      if (!authorized(request, 'openai', url)) return sendJson(response, 401, ERRORS.openai401);
      return sendJson(response, 200, BASE64_ENCODING.test(body) ? responses.openaiEmbeddingBase64 : responses.openaiEmbedding);
    }
    if (path === '/v1/messages') {
      if (!authorized(request, 'anthropic', url)) return sendJson(response, 401, ERRORS.anthropic401);
      if (!STREAM_TRUE.test(body)) return sendJson(response, 200, responses.anthropicMessage);
      return sendStream(response, responses.anthropicStream);
    }
    // The trace sink of the traced cells: gengate's OTLP exporter posts its spans here, and they are dropped.
    if (path === '/v1/traces') return sendJson(response, 200, Buffer.from('{}'));
    const gemini = /^\/v1(?:beta)?\/models\/[^/:]+:(\w+)$/.exec(path);
    if (gemini) {
      if (!authorized(request, 'gemini', url)) return sendJson(response, 401, ERRORS.gemini401);
      switch (gemini[1]) {
        case 'generateContent':
          return sendJson(response, 200, responses.geminiGenerate);
        case 'streamGenerateContent':
          return sendStream(response, responses.geminiStream);
        case 'embedContent':
          return sendJson(response, 200, responses.geminiEmbedding);
        case 'batchEmbedContents':
          return sendJson(response, 200, geminiBatch(responses, body));
      }
    }
    return sendJson(response, 404, ERRORS.notFound);
  };

  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => handle(request, response, body));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 0;
  return { server, responses };
}

/** Answers one embedding per request of the batch, in order (not a fast path: parses the body). */
function geminiBatch(responses: MockResponses, body: string): Buffer {
  let count = 1;
  try {
    const parsed = JSON.parse(body) as { requests?: unknown[] };
    if (Array.isArray(parsed.requests)) count = parsed.requests.length;
  } catch {
    // a malformed batch still gets one embedding: the mock measures, it does not validate
  }
  const one = responses.geminiEmbeddingValues.toString();
  return Buffer.from(`{"embeddings":[${Array.from({ length: count }, () => one).join(',')}]}`);
}

export async function startMockUpstream(options: Partial<MockOptions> & { port?: number; host?: string } = {}): Promise<RunningMock> {
  const { server, responses } = createMockServer({ ...DEFAULT_MOCK_OPTIONS, ...options });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    responses,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads the command-line flags of a standalone mock. */
export function parseMockArgs(argv: string[]): MockOptions & { port: number } {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '0' },
      latency: { type: 'string', default: String(DEFAULT_MOCK_OPTIONS.latencyMs) },
      ttft: { type: 'string', default: String(DEFAULT_MOCK_OPTIONS.ttftMs) },
      tps: { type: 'string', default: String(DEFAULT_MOCK_OPTIONS.tps) },
      size: { type: 'string', default: String(DEFAULT_MOCK_OPTIONS.size) },
      dims: { type: 'string', default: String(DEFAULT_MOCK_OPTIONS.embeddingDims) },
      key: { type: 'string', default: DEFAULT_MOCK_OPTIONS.apiKey },
    },
  });
  const number = (name: string, value: string | undefined): number => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${name} must be a number ≥ 0, got ${value}`);
    return parsed;
  };
  return {
    port: number('port', values.port),
    latencyMs: number('latency', values.latency),
    ttftMs: number('ttft', values.ttft),
    tps: number('tps', values.tps),
    size: Math.floor(number('size', values.size)),
    embeddingDims: Math.max(1, Math.floor(number('dims', values.dims))),
    apiKey: values.key ?? DEFAULT_MOCK_OPTIONS.apiKey,
  };
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const options = parseMockArgs(process.argv.slice(2));
  startMockUpstream(options).then(
    (mock) => {
      process.stdout.write(`${JSON.stringify({ port: mock.port })}\n`);
      const stop = (): void => {
        mock.close().then(() => process.exit(0));
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
