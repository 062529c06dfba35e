/**
 * GatewayError → the imgtask answer `{code, description, result: null}`, with the MJ proxy's
 * codes: 3 not found, 4 validation, 23 queue full (rate limits, overload), 24 banned prompt,
 * 9 any other failure. The HTTP status is the error kind's (the proxy answers 404 with code 3
 * and 400 with code 4 on its lookups; MJ-proxy clients read `code` either way).
 */
import type { GatewayError } from '../../core/errors.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';

function imgtaskCodeOf(error: GatewayError): number {
  if (error.code === 'content_policy' || error.code === 'content_policy_violation') return 24;
  switch (error.kind) {
    case 'not_found':
      return 3;
    case 'invalid_request':
    case 'request_too_large':
      return 4;
    case 'rate_limit':
    case 'overloaded':
      return 23;
    default:
      return 9;
  }
}

export const renderImgtaskError: ErrorRenderer = (error: GatewayError, requestId: string) => ({
  status: error.status,
  body: { code: imgtaskCodeOf(error), description: error.message, result: null },
  headers: { 'x-request-id': requestId },
});
