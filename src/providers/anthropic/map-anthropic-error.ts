/**
 * Anthropic error answers (`{type:"error", error:{type, message}}`) → GatewayErrors. The
 * HTTP status decides kind and retryability (529 overloaded is retryable); inside a stream,
 * where there is no status, the error type decides.
 */
import { GatewayError, type ErrorKind } from '../../core/errors.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

interface ParsedError {
  type?: string;
  message: string;
  /** The message is the body's raw text. */
  unparsed?: boolean;
}

/** The type and message of an Anthropic error body; falls back to the raw text. */
export function parseAnthropicError(text: string): ParsedError {
  try {
    const body = JSON.parse(text) as { error?: { type?: unknown; message?: unknown } };
    const error = body?.error;
    if (error && typeof error.message === 'string') {
      return { type: typeof error.type === 'string' ? error.type : undefined, message: error.message };
    }
  } catch {
    // Not JSON: a proxy or load balancer answered.
  }
  const trimmed = text.trim();
  return { message: trimmed.length > 0 ? trimmed.slice(0, 500) : 'no error message', unparsed: trimmed.length > 0 };
}

export function mapAnthropicError(status: number, text: string, headers: UpstreamResponse['headers']): GatewayError {
  const { type, message, unparsed } = parseAnthropicError(text);
  return upstreamError(status, `anthropic upstream: ${message}`, headers, type, unparsed);
}

const KIND_BY_STREAM_TYPE: Record<string, { kind: ErrorKind; retryable: boolean }> = {
  overloaded_error: { kind: 'overloaded', retryable: true },
  rate_limit_error: { kind: 'rate_limit', retryable: true },
  api_error: { kind: 'upstream', retryable: true },
  invalid_request_error: { kind: 'invalid_request', retryable: false },
  request_too_large: { kind: 'request_too_large', retryable: false },
  not_found_error: { kind: 'not_found', retryable: false },
  timeout_error: { kind: 'timeout', retryable: true },
};

/** The `data` of a mid-stream `event: error` → a GatewayError. */
export function mapAnthropicStreamError(data: string): GatewayError {
  const { type, message } = parseAnthropicError(data);
  const { kind, retryable } = (type && KIND_BY_STREAM_TYPE[type]) || { kind: 'upstream' as const, retryable: true };
  return new GatewayError(kind, `anthropic upstream: ${message}`, { retryable, code: type });
}
