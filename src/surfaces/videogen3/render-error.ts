/**
 * GatewayError → videogen3's error answer, as Luma's API answers: `{"detail": "<message>"}`
 * with the HTTP status of the error's kind (400, 401, 403, 404, 413, 429, 5xx).
 */
import type { GatewayError } from '../../core/errors.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';

interface Videogen3ErrorBody {
  detail: string;
}

export const renderVideogen3Error: ErrorRenderer = (error: GatewayError, requestId: string) => {
  const body: Videogen3ErrorBody = { detail: error.message };
  return { status: error.status, body, headers: { 'x-request-id': requestId } };
};
