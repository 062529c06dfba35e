/**
 * The closed error vocabulary: every failure is classified once into one of these, saying
 * whose fault it was — the client's, a policy's (a limit or budget), the upstream's, or the
 * gateway's own. Stored on usage rows and task records, used as the metrics' `error.type`.
 * The set is fixed: alarms and dashboards match on these strings.
 */
import type { ErrorKind } from './error-kind.js';

export const ERROR_TYPES = [
  'client.invalid_request',
  'client.auth',
  'client.permission',
  'client.not_found',
  'client.too_large',
  'client.closed',
  'policy.rate_limited',
  'policy.budget',
  'upstream.timeout',
  'upstream.rate_limited',
  'upstream.overloaded',
  'upstream.server_error',
  'upstream.refused',
  'upstream.auth',
  'upstream.unreachable',
  'gateway.internal',
  'gateway.unavailable',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

const KNOWN = new Set<string>(ERROR_TYPES);

export function isErrorType(value: unknown): value is ErrorType {
  return typeof value === 'string' && KNOWN.has(value);
}

/** How an error raised by the gateway itself (not out of an upstream attempt) is classified. */
const GATEWAY_SIDE: Record<ErrorKind, ErrorType> = {
  invalid_request: 'client.invalid_request',
  authentication: 'client.auth',
  permission: 'client.permission',
  not_found: 'client.not_found',
  request_too_large: 'client.too_large',
  rate_limit: 'policy.rate_limited',
  insufficient_quota: 'policy.budget',
  upstream: 'upstream.server_error',
  timeout: 'upstream.timeout',
  overloaded: 'gateway.unavailable',
  internal: 'gateway.internal',
};

export function gatewaySideErrorType(kind: ErrorKind, code: string | undefined): ErrorType {
  if (code === 'client_closed') return 'client.closed';
  return GATEWAY_SIDE[kind];
}

interface UpstreamFacts {
  kind: ErrorKind;
  code?: string;
  upstreamStatus?: number;
}

/**
 * How an error that came out of an upstream attempt is classified: what the upstream answered
 * (its status) or how reaching it failed. An error the attempt raised before anything was sent
 * (a field the dialect cannot carry) stays the client's.
 */
export function upstreamErrorType(error: UpstreamFacts): ErrorType {
  const { kind, code, upstreamStatus: status } = error;
  if (code === 'client_closed') return 'client.closed';
  if (code === 'upstream_unreachable') return 'upstream.unreachable';
  if (status === 401 || status === 402 || status === 403) return 'upstream.auth';
  if (status === 429 || kind === 'rate_limit' || kind === 'insufficient_quota') return 'upstream.rate_limited';
  if (kind === 'timeout' || status === 408 || status === 504) return 'upstream.timeout';
  if (kind === 'overloaded' || status === 503 || status === 529) return 'upstream.overloaded';
  if (status !== undefined && status >= 400 && status < 500) return 'upstream.refused';
  if (status !== undefined && status >= 500) return 'upstream.server_error';
  if (kind === 'upstream') return 'upstream.server_error';
  if (kind === 'internal') return 'gateway.internal';
  return gatewaySideErrorType(kind, code);
}

/** The error type of a call's ending: none for a success, `client.closed` for a client that left. */
export function errorTypeOfOutcome(outcome: string, error: { errorType: ErrorType } | undefined): ErrorType | undefined {
  if (outcome === 'ok') return undefined;
  if (outcome === 'client_closed') return 'client.closed';
  return error?.errorType ?? 'gateway.internal';
}
