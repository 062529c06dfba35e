import type { ErrorKind } from './error-kind.js';
import { type ErrorType, gatewaySideErrorType, upstreamErrorType } from './error-type.js';

/**
 * The one error type of the gateway. Thrown anywhere; each surface renders it in its own
 * dialect (body shape and status code).
 */
export type { ErrorKind } from './error-kind.js';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  request_too_large: 413,
  rate_limit: 429,
  insufficient_quota: 429,
  upstream: 502,
  timeout: 504,
  overloaded: 503,
  internal: 500,
};

/** Longest message an error carries; anything longer (an echoed client value, an upstream's answer) is cut. */
const MAX_ERROR_MESSAGE_CHARS = 2048;
const MAX_PARAM_CHARS = 256;

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

interface GatewayErrorOptions {
  /** The request field the error is about, e.g. `messages[0].content`. */
  param?: string;
  /** A machine-readable code, e.g. `model_not_found`, `invalid_api_key`. */
  code?: string;
  /** Overrides the status derived from the kind. */
  status?: number;
  /** Status the upstream answered with, when the error came from one. */
  upstreamStatus?: number;
  /** Whether another attempt (on another channel) may succeed. */
  retryable?: boolean;
  /** Seconds the client should wait before retrying, when known. */
  retryAfter?: number;
  /** What a gateway rate limit counted (OpenAI's error `type` of a 429: `requests` or `tokens`). */
  rateLimitType?: 'requests' | 'tokens';
  /** Whose fault it was (`core/error-type.ts`); derived from the kind when not given. */
  errorType?: ErrorType;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly kind: ErrorKind;
  readonly param?: string;
  readonly code?: string;
  readonly status: number;
  readonly upstreamStatus?: number;
  readonly retryable: boolean;
  readonly retryAfter?: number;
  readonly rateLimitType?: 'requests' | 'tokens';
  private classified: ErrorType;
  private pinned: boolean;

  constructor(kind: ErrorKind, message: string, options: GatewayErrorOptions = {}) {
    super(bounded(message, MAX_ERROR_MESSAGE_CHARS), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.kind = kind;
    this.param = options.param === undefined ? undefined : bounded(options.param, MAX_PARAM_CHARS);
    this.code = options.code;
    this.status = options.status ?? STATUS_BY_KIND[kind];
    this.upstreamStatus = options.upstreamStatus;
    this.retryable = options.retryable ?? false;
    this.retryAfter = options.retryAfter;
    this.rateLimitType = options.rateLimitType;
    this.pinned = options.errorType !== undefined;
    this.classified = options.errorType ?? gatewaySideErrorType(kind, options.code);
  }

  /** Whose fault it was, in the closed vocabulary of `core/error-type.ts`. */
  get errorType(): ErrorType {
    return this.classified;
  }

  /**
   * Classifies the error as one that came out of an upstream attempt (by the attempt loop, once);
   * a type given where the error was raised is kept.
   */
  classifyAsUpstream(): void {
    if (this.pinned) return;
    this.classified = upstreamErrorType(this);
    this.pinned = true;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

export function invalidRequest(message: string, param?: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}

/**
 * Wraps anything thrown into a GatewayError; unknown errors become `internal` with a generic
 * message: what they say (a database's error, a path, a stack) is for the log, never the client.
 * The error is kept as the cause, for whoever logs it.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError('internal', 'internal error', { cause: error });
}

/** The error kind an upstream HTTP status stands for, and whether another channel may succeed. */
export function kindForUpstreamStatus(status: number): { kind: ErrorKind; retryable: boolean } {
  if (status === 400 || status === 422) return { kind: 'invalid_request', retryable: false };
  if (status === 404) return { kind: 'not_found', retryable: false };
  if (status === 413) return { kind: 'request_too_large', retryable: false };
  // The channel's own credentials were refused: that is the gateway's problem, not the client's.
  if (status === 401 || status === 403) return { kind: 'upstream', retryable: true };
  if (status === 402) return { kind: 'upstream', retryable: true };
  if (status === 408) return { kind: 'timeout', retryable: true };
  if (status === 429) return { kind: 'rate_limit', retryable: true };
  if (status === 503 || status === 529) return { kind: 'overloaded', retryable: true };
  if (status === 504) return { kind: 'timeout', retryable: true };
  if (status >= 500) return { kind: 'upstream', retryable: true };
  return { kind: 'upstream', retryable: false };
}
