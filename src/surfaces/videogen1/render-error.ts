/**
 * GatewayError → videogen1's error answer: its envelope with a non-zero `code`, the message
 * and `data: null`, under the HTTP status of the error's kind. The spec only says success is
 * 0; the gateway's codes, one per kind of error:
 *
 * | code | kind | HTTP |
 * |---|---|---|
 * | 1000 | internal | 500 |
 * | 1001 | invalid_request (a field names itself in the message) | 400 |
 * | 1002 | authentication (missing or invalid key) | 401 |
 * | 1003 | permission (the key may not use the model) | 403 |
 * | 1004 | not_found (unknown task or model) | 404 |
 * | 1005 | request_too_large | 413 |
 * | 1006 | rate_limit | 429 |
 * | 1007 | insufficient_quota (budget spent) | 429 |
 * | 1008 | upstream (the model's vendor failed) | 502 |
 * | 1009 | timeout | 504 |
 * | 1010 | overloaded | 503 |
 */
import type { ErrorKind, GatewayError } from '../../core/errors.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';

const VIDEOGEN1_ERROR_CODES: Record<ErrorKind, number> = {
  internal: 1000,
  invalid_request: 1001,
  authentication: 1002,
  permission: 1003,
  not_found: 1004,
  request_too_large: 1005,
  rate_limit: 1006,
  insufficient_quota: 1007,
  upstream: 1008,
  timeout: 1009,
  overloaded: 1010,
};

interface Videogen1ErrorBody {
  code: number;
  message: string;
  data: null;
}

export const renderVideogen1Error: ErrorRenderer = (error: GatewayError, requestId: string) => {
  const body: Videogen1ErrorBody = { code: VIDEOGEN1_ERROR_CODES[error.kind], message: error.message, data: null };
  return { status: error.status, body, headers: { 'x-request-id': requestId } };
};
