/**
 * GatewayError → Google's error shape `{error:{code, message, status}}`, with the
 * google.rpc status name for the HTTP status, and a BadRequest field violation naming the
 * offending field when the error has one (as Google's own validation errors do).
 */
import type { GatewayError } from '../../core/errors.js';
import type { GeminiErrorBody } from '../../core/wire/gemini-types.js';
import type { RenderedError } from '../../http/error-renderer.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  // Google has no "too large" status; an oversized payload is an invalid argument.
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiStatusName(httpStatus: number): string {
  return STATUS_NAMES[httpStatus] ?? (httpStatus < 500 ? 'INVALID_ARGUMENT' : 'INTERNAL');
}

export function geminiErrorBody(error: GatewayError): GeminiErrorBody {
  const body: GeminiErrorBody = { error: { code: error.status, message: error.message, status: geminiStatusName(error.status) } };
  if (error.param !== undefined && error.status === 400) {
    body.error.details = [
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: error.param, description: error.message }],
      },
    ];
  }
  return body;
}

export function renderGeminiError(error: GatewayError): RenderedError {
  return { status: error.status, body: geminiErrorBody(error) };
}
