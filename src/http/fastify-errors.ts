import { GatewayError } from '../core/errors.js';

/** Maps Fastify's own errors (body parsing, size limits, media types) to GatewayErrors. */
export function gatewayErrorFromFastify(error: unknown): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  const e = error as { code?: string; statusCode?: number; message?: string; validation?: unknown };
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('request_too_large', 'request body is larger than the configured limit', { code: 'request_too_large' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('invalid_request', `unsupported content type: ${e.message ?? ''}`, { status: 415 });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError('invalid_request', 'request body is empty; a JSON object is required');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new GatewayError('invalid_request', `malformed JSON body: ${e.message ?? ''}`);
  }
  if (e?.code === 'ERR_INVALID_JSON' || error instanceof SyntaxError) {
    return new GatewayError('invalid_request', `malformed JSON body: ${(error as Error).message}`);
  }
  if (e?.validation) return new GatewayError('invalid_request', e.message ?? 'invalid request');
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new GatewayError('invalid_request', e.message ?? 'invalid request', { status: e.statusCode });
  }
  return undefined;
}
