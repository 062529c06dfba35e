/**
 * The one way providers talk HTTP to upstreams: undici with pooled keep-alive connections,
 * a per-attempt deadline for the response headers, and connection failures turned into
 * retryable GatewayErrors.
 */
import { Readable } from 'node:stream';
import { Agent, type Dispatcher, util } from 'undici';
import { onAbort } from '../../core/call-abort.js';
import { GatewayError, kindForUpstreamStatus } from '../../core/errors.js';
import { UnparsedUpstreamBody } from '../../core/unparsed-upstream-body.js';
import { upstreamTraceHeaders } from '../../observability/upstream-trace-headers.js';
import { connectUpstream } from './upstream-connector.js';

const { parseHeaders } = util;

const agent = new Agent({
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 600_000,
  // Each open stream holds a connection: a low cap would queue long streams behind each other.
  connections: 8192,
  pipelining: 1,
  // Long generations may pause between tokens; each request bounds its wait for headers itself.
  bodyTimeout: 0,
  // Every connection's address is checked against the hosts channels may reach.
  connect: connectUpstream,
});

interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  /** A JSON string or bytes; omitted for GET. */
  body?: string | Uint8Array;
  signal: AbortSignal;
  /** Time allowed until the response headers arrive. */
  timeoutMs: number;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

/**
 * An upstream answer's body: a byte stream fed straight from undici's socket reads (pushing
 * past the high-water mark pauses the socket until the body is read again). Destroying it
 * before its end aborts the request, which closes the connection.
 */
class UpstreamBody extends Readable {
  private resumeSocket?: () => void;
  private abortRequest?: (reason: Error) => void;
  private ended = false;

  constructor() {
    super({ highWaterMark: BODY_HIGH_WATER_MARK });
  }

  /**
   * The whole body as UTF-8 text, decoded once at the end: V8's own UTF-8 decoder makes a
   * one-byte string of an ASCII body, where a streaming TextDecoder (stream/consumers' text)
   * goes through ICU and a two-byte copy, several per cent of an embeddings call's CPU. Read with
   * listeners rather than an async iterator, which costs microseconds a body on Node 20.
   */
  text(): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.once('end', () => resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
      this.once('error', reject);
      // Destroyed without an error (no 'end' will come): settle rather than wait forever.
      this.once('close', () => {
        if (!this.readableEnded) reject(new Error('upstream body closed before its end'));
      });
    });
  }

  /** @internal undici's controls of the request this body belongs to. */
  attach(resume: () => void, abort: (reason: Error) => void): void {
    this.resumeSocket = resume;
    this.abortRequest = abort;
  }

  /** @internal The last byte arrived. */
  finish(): void {
    this.ended = true;
    this.push(null);
  }

  override _read(): void {
    this.resumeSocket?.();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.ended) {
      this.ended = true;
      this.abortRequest?.(error ?? new Error('upstream body closed before its end'));
    }
    callback(error);
  }
}

const BODY_HIGH_WATER_MARK = 64 * 1024;

/**
 * Sends a request upstream; resolves with whatever status came back. Throws only when no answer came.
 * Dispatched on undici's handler interface: the answer's bytes go straight into an `UpstreamBody`,
 * without the promise, async-resource and stream layers of undici's `request()`.
 */
export function sendUpstream(req: UpstreamRequest): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const { signal } = req;
    if (signal.aborted) {
      reject(failure(req, signal.reason));
      return;
    }
    let abortRequest: ((reason: Error) => void) | undefined;
    let pendingAbort: Error | undefined;
    let body: UpstreamBody | undefined;
    const abortNow = (): void => {
      const reason = signal.reason instanceof Error ? signal.reason : new Error('aborted');
      if (abortRequest) abortRequest(reason);
      else pendingAbort = reason;
    };
    const done = onAbort(signal, abortNow);
    const [origin, path] = splitUrl(req.url);
    // The attempt's span as the upstream's parent, when traces are on.
    const traceHeaders = upstreamTraceHeaders(signal);
    agent.dispatch(
      {
        origin,
        path,
        method: req.method ?? 'POST',
        headers: traceHeaders ? { ...req.headers, ...traceHeaders } : req.headers,
        body: req.body,
        // The deadline covers waiting for the response headers only: once they are in, a long
        // stream may take as long as it takes (the client's own disconnect still aborts it).
        headersTimeout: req.timeoutMs,
        bodyTimeout: 0,
      },
      {
        onConnect(abort: (reason?: Error) => void) {
          abortRequest = abort;
          if (pendingAbort) abort(pendingAbort);
        },
        onHeaders(status: number, rawHeaders: Buffer[], resume: () => void) {
          body = new UpstreamBody();
          body.attach(resume, (reason) => abortRequest?.(reason));
          resolve({ status, headers: parseHeaders(rawHeaders) as UpstreamResponse['headers'], body });
          return true;
        },
        onData(chunk: Buffer) {
          return body!.push(chunk);
        },
        onComplete() {
          done();
          body!.finish();
        },
        onError(error: Error) {
          done();
          if (body) body.destroy(error);
          else reject(failure(req, error));
        },
      } as Dispatcher.DispatchHandler,
    );
  });
}

/** `http://host:port/path?query` as undici's origin and path (the URLs are built by the gateway from a channel's base URL). */
function splitUrl(url: string): [string, string] {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? [url, '/'] : [url.slice(0, slash), url.slice(slash)];
}

/** Why no answer came, as the GatewayError the attempt loop expects. */
function failure(req: UpstreamRequest, error: unknown): GatewayError {
  if (req.signal.aborted) {
    // A reason given (the gateway shutting down) says why; otherwise the client left.
    if (req.signal.reason instanceof GatewayError) return req.signal.reason;
    return new GatewayError('upstream', 'request aborted by the client', { retryable: false, cause: error, code: 'client_closed' });
  }
  const code = (error as { code?: string }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new GatewayError('timeout', `upstream did not answer within ${req.timeoutMs} ms`, { retryable: true, cause: error });
  }
  // The error code only: undici's message names the upstream's host and port, which clients must not learn.
  const cause = code ?? (error as { cause?: { code?: string } }).cause?.code ?? 'connection failed';
  return new GatewayError('upstream', `upstream unreachable (${cause})`, { retryable: true, cause: error, code: 'upstream_unreachable' });
}

/** Reads a (small) upstream error body as text, bounded so a hostile upstream cannot exhaust memory. */
export async function readErrorText(body: UpstreamResponse['body'], limit = 64 * 1024): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.length > limit) {
      body.on('error', () => undefined);
      body.destroy();
      return text.slice(0, limit);
    }
  }
  return text;
}

/** Parses a JSON body that should be JSON; a malformed one is the upstream's fault. */
export async function readJson<T>(body: UpstreamResponse['body']): Promise<T> {
  const text = await body.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GatewayError('upstream', `upstream answered with invalid JSON: ${text.slice(0, 200)}`, { retryable: true, cause: new UnparsedUpstreamBody() });
  }
}

/**
 * Turns a non-2xx upstream answer into a GatewayError, using the message the upstream gave
 * (extracted by the provider from its own error shape; `unparsed` when it is the body's raw text).
 */
export function upstreamError(status: number, message: string, headers: UpstreamResponse['headers'], code?: string, unparsed = false): GatewayError {
  const { kind, retryable } = kindForUpstreamStatus(status);
  const retryAfterHeader = headers['retry-after'];
  const retryAfter = typeof retryAfterHeader === 'string' && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const prefix = status === 401 || status === 403 ? 'upstream refused the channel credentials: ' : '';
  const cause = unparsed ? new UnparsedUpstreamBody() : undefined;
  return new GatewayError(kind, `${prefix}${message}`, { upstreamStatus: status, retryable, retryAfter, code, cause });
}

/** The first value of a header that may repeat. */
export function headerValue(headers: UpstreamResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
