/** GatewayError → OpenAI's error body `{error:{message,type,param,code}}` and status. */
import type { GatewayError } from '../../core/errors.js';
import type { OpenAIErrorBody, OpenAIErrorObject } from '../../core/wire/openai-chat-types.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';

/** The four-key error object OpenAI clients expect (also used for in-stream errors). */
export function toOpenAIErrorObject(error: GatewayError): OpenAIErrorObject {
  const { type, code } = typeAndCode(error);
  return { message: error.message, type, param: error.param ?? null, code };
}

function typeAndCode(error: GatewayError): { type: string; code: string | null } {
  const code = error.code ?? null;
  switch (error.kind) {
    case 'invalid_request':
      return { type: 'invalid_request_error', code };
    case 'authentication':
      return { type: 'invalid_request_error', code: code ?? 'invalid_api_key' };
    case 'permission':
      return { type: 'permission_error', code };
    case 'not_found':
      return { type: 'invalid_request_error', code: code ?? (isAboutModel(error) ? 'model_not_found' : null) };
    case 'request_too_large':
      return { type: 'invalid_request_error', code: code ?? 'request_too_large' };
    case 'rate_limit':
      // A gateway limit says what it counted, as OpenAI's own 429s do (`requests`, `tokens`).
      return { type: error.rateLimitType ?? 'rate_limit_error', code: code ?? 'rate_limit_exceeded' };
    case 'insufficient_quota':
      return { type: 'insufficient_quota', code: code ?? 'insufficient_quota' };
    case 'upstream':
      return { type: 'server_error', code: code ?? 'upstream_error' };
    case 'timeout':
      return { type: 'server_error', code: code ?? 'timeout' };
    case 'overloaded':
      return { type: 'server_error', code: code ?? 'overloaded' };
    case 'internal':
      return { type: 'server_error', code };
  }
}

function isAboutModel(error: GatewayError): boolean {
  return error.param === 'model' || /\bmodel\b/i.test(error.message);
}

export const renderOpenAIError: ErrorRenderer = (error, requestId) => {
  const body: OpenAIErrorBody = { error: toOpenAIErrorObject(error) };
  return { status: error.status, body, headers: { 'x-request-id': requestId } };
};
