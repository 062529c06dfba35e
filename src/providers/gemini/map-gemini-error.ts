/**
 * Google error answers (`{error:{code, message, status, details}}`) → GatewayErrors. The
 * HTTP status decides kind and retryability, with two Google specifics: an invalid API key
 * comes back as 400 (it is the channel's credential, not the client's request, so it is
 * treated like 401), and a 429 says how long to wait in a RetryInfo detail.
 */
import { GatewayError, kindForUpstreamStatus } from '../../core/errors.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

interface ParsedError {
  message: string;
  status?: string;
  code?: number;
  keyInvalid: boolean;
  retryDelaySeconds?: number;
  /** The message is the body's raw text. */
  unparsed?: boolean;
}

interface WireError {
  code?: unknown;
  message?: unknown;
  status?: unknown;
  details?: unknown;
}

function parseGeminiError(text: string): ParsedError {
  let error: WireError | undefined;
  try {
    const body = JSON.parse(text) as unknown;
    // Some Google front ends wrap the error in a one-element array.
    const first = Array.isArray(body) ? body[0] : body;
    error = (first as { error?: WireError } | null)?.error;
  } catch {
    // Not JSON: a proxy or load balancer answered.
  }
  if (!error || typeof error.message !== 'string') {
    const trimmed = text.trim();
    return { message: trimmed.length > 0 ? trimmed.slice(0, 500) : 'no error message', keyInvalid: false, unparsed: trimmed.length > 0 };
  }
  return describeError(error);
}

function describeError(error: WireError): ParsedError {
  const details = Array.isArray(error.details) ? (error.details as Array<Record<string, unknown>>) : [];
  const message = typeof error.message === 'string' ? error.message : 'no error message';
  const keyInvalid = details.some((d) => d?.reason === 'API_KEY_INVALID') || /API key not valid/i.test(message);
  const delay = details.find((d) => typeof d?.retryDelay === 'string')?.retryDelay as string | undefined;
  const seconds = delay !== undefined ? /^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1] : undefined;
  return {
    message,
    status: typeof error.status === 'string' ? error.status : undefined,
    code: typeof error.code === 'number' ? error.code : undefined,
    keyInvalid,
    retryDelaySeconds: seconds !== undefined ? Math.ceil(Number(seconds)) : undefined,
  };
}

export function mapGeminiError(status: number, text: string, headers: UpstreamResponse['headers']): GatewayError {
  const parsed = parseGeminiError(text);
  const effective = parsed.keyInvalid ? 401 : status;
  const error = upstreamError(effective, `gemini upstream: ${parsed.message}`, headers, parsed.status, parsed.unparsed);
  if (effective === status && (error.retryAfter !== undefined || parsed.retryDelaySeconds === undefined)) return error;
  return new GatewayError(error.kind, error.message, {
    upstreamStatus: status,
    retryable: error.retryable,
    retryAfter: error.retryAfter ?? parsed.retryDelaySeconds,
    code: error.code,
    cause: error.cause,
  });
}

/** The `error` object of a mid-stream chunk → a GatewayError (its `code` is an HTTP status). */
export function mapGeminiStreamError(error: WireError): GatewayError {
  const parsed = describeError(error);
  const status = parsed.code ?? 500;
  const { kind, retryable } = kindForUpstreamStatus(status);
  return new GatewayError(kind, `gemini upstream: ${parsed.message}`, { upstreamStatus: status, retryable, code: parsed.status });
}
