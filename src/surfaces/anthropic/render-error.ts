/**
 * GatewayError → Anthropic error shape: `{type:"error", error:{type, message}, request_id}`
 * with the `request-id` header. Overload is 529, as Anthropic answers it.
 */
import type { GatewayError } from '../../core/errors.js';
import type { AnthropicErrorBody, AnthropicErrorType } from '../../core/wire/anthropic-types.js';
import type { RenderedError } from '../../http/error-renderer.js';

export function anthropicErrorType(error: GatewayError): { status: number; type: AnthropicErrorType } {
  switch (error.kind) {
    case 'invalid_request':
      return { status: error.status, type: 'invalid_request_error' };
    case 'authentication':
      return { status: 401, type: 'authentication_error' };
    case 'permission':
      return { status: 403, type: 'permission_error' };
    case 'not_found':
      return { status: 404, type: 'not_found_error' };
    case 'request_too_large':
      return { status: 413, type: 'request_too_large' };
    case 'rate_limit':
    case 'insufficient_quota':
      return { status: 429, type: 'rate_limit_error' };
    case 'overloaded':
      return { status: 529, type: 'overloaded_error' };
    case 'timeout':
      return { status: 504, type: 'api_error' };
    case 'upstream':
      return { status: 502, type: 'api_error' };
    default:
      return { status: 500, type: 'api_error' };
  }
}

function anthropicErrorBody(error: GatewayError, requestId: string): AnthropicErrorBody {
  return { type: 'error', error: { type: anthropicErrorType(error).type, message: error.message }, request_id: requestId };
}

export function renderAnthropicError(error: GatewayError, requestId: string): RenderedError {
  return {
    status: anthropicErrorType(error).status,
    body: anthropicErrorBody(error, requestId),
    headers: { 'request-id': requestId },
  };
}
