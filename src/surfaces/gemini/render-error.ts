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

function geminiStatusName(httpStatus: number): string {
  return STATUS_NAMES[httpStatus] ?? (httpStatus < 500 ? 'INVALID_ARGUMENT' : 'INTERNAL');
}

/**
 * Google answers a key it does not accept (wrong, revoked, expired) with 400 INVALID_ARGUMENT
 * and an ErrorInfo `API_KEY_INVALID`, and a request without any key with 403
 * PERMISSION_DENIED; SDKs and clients branch on these, not on 401.
 */
function keyErrorBody(error: GatewayError): GeminiErrorBody {
  if (error.code === 'missing_api_key') return { error: { code: 403, message: error.message, status: 'PERMISSION_DENIED' } };
  return {
    error: {
      code: 400,
      message: error.message,
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
        { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: error.message },
      ],
    },
  };
}

export function geminiErrorBody(error: GatewayError): GeminiErrorBody {
  if (error.kind === 'authentication') return keyErrorBody(error);
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
  const body = geminiErrorBody(error);
  return { status: body.error.code, body };
}
