/**
 * The one way providers talk HTTP to upstreams: undici with pooled keep-alive connections,
 * a per-attempt deadline for the response headers, and connection failures turned into
 * retryable GatewayErrors.
 */
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { GatewayError, kindForUpstreamStatus } from '../../core/errors.js';

const agent = new Agent({
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 600_000,
  // Each open stream holds a connection: a low cap would queue long streams behind each other.
  connections: 8192,
  pipelining: 1,
  // Long generations may pause between tokens; each request bounds its wait for headers itself.
  bodyTimeout: 0,
});

export interface UpstreamRequest {
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
  body: Dispatcher.ResponseData['body'];
}

/** Sends a request upstream; resolves with whatever status came back. Throws only when no answer came. */
export async function sendUpstream(req: UpstreamRequest): Promise<UpstreamResponse> {
  try {
    const res = await request(req.url, {
      method: req.method ?? 'POST',
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      dispatcher: agent,
      // The deadline covers waiting for the response headers only: once they are in, a long
      // stream may take as long as it takes (the client's own disconnect still aborts it).
      headersTimeout: req.timeoutMs,
    });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  } catch (error) {
    if (req.signal.aborted) {
      // A reason given (the gateway shutting down) says why; otherwise the client left.
      if (req.signal.reason instanceof GatewayError) throw req.signal.reason;
      throw new GatewayError('upstream', 'request aborted by the client', { retryable: false, cause: error, code: 'client_closed' });
    }
    const code = (error as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      throw new GatewayError('timeout', `upstream did not answer within ${req.timeoutMs} ms`, { retryable: true, cause: error });
    }
    // The error code only: undici's message names the upstream's host and port, which clients must not learn.
    const cause = code ?? (error as { cause?: { code?: string } }).cause?.code ?? 'connection failed';
    throw new GatewayError('upstream', `upstream unreachable (${cause})`, { retryable: true, cause: error, code: 'upstream_unreachable' });
  }
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
    throw new GatewayError('upstream', `upstream answered with invalid JSON: ${text.slice(0, 200)}`, { retryable: true });
  }
}

/**
 * Turns a non-2xx upstream answer into a GatewayError, using the message the upstream gave
 * (extracted by the provider from its own error shape).
 */
export function upstreamError(status: number, message: string, headers: UpstreamResponse['headers'], code?: string): GatewayError {
  const { kind, retryable } = kindForUpstreamStatus(status);
  const retryAfterHeader = headers['retry-after'];
  const retryAfter = typeof retryAfterHeader === 'string' && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  const prefix = status === 401 || status === 403 ? 'upstream refused the channel credentials: ' : '';
  return new GatewayError(kind, `${prefix}${message}`, { upstreamStatus: status, retryable, retryAfter, code });
}

/** The first value of a header that may repeat. */
export function headerValue(headers: UpstreamResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
