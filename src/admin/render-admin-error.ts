/** The admin API's one error shape: `{ error: { code, message, requestId } }` with the error's status. */
import type { GatewayError } from '../core/errors.js';
import type { RenderedError } from '../http/error-renderer.js';

const CODE_BY_KIND: Record<GatewayError['kind'], string> = {
  invalid_request: 'invalid_request',
  authentication: 'unauthenticated',
  permission: 'forbidden',
  not_found: 'not_found',
  request_too_large: 'request_too_large',
  rate_limit: 'too_many_requests',
  insufficient_quota: 'insufficient_quota',
  upstream: 'upstream_error',
  timeout: 'timeout',
  overloaded: 'overloaded',
  internal: 'internal_error',
};

export function renderAdminError(error: GatewayError, requestId: string): RenderedError {
  return {
    status: error.status,
    body: { error: { code: error.code ?? CODE_BY_KIND[error.kind], message: error.message, requestId } },
  };
}
