/**
 * GatewayError → the imagegen1 error answer, in Replicate's problem-details shape
 * `{title, detail, status}` with the error's HTTP status (field checks already carry 422,
 * Replicate's status for invalid input). Sent as `application/json` so every JSON client
 * reads it.
 */
import type { GatewayError } from '../../core/errors.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';

interface Imagegen1ErrorBody {
  title: string;
  detail: string;
  status: number;
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request entity too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  422: 'Input validation failed',
  429: 'Request was throttled',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

export const renderImagegen1Error: ErrorRenderer = (error: GatewayError, requestId: string) => {
  const status = error.status;
  const title = error.kind === 'insufficient_quota' ? 'Insufficient credit' : (TITLES[status] ?? (status >= 500 ? 'Server error' : 'Request failed'));
  const body: Imagegen1ErrorBody = { title, detail: error.message, status };
  return { status, body, headers: { 'x-request-id': requestId } };
};
