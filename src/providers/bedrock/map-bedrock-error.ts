/**
 * Bedrock's errors → GatewayErrors. An HTTP error answer names its type in `x-amzn-errortype`
 * (`ThrottlingException:http://…`) and says why in the JSON body's `message` (or `Message`); the
 * status decides kind and retryability (`kindForUpstreamStatus`: 429 throttling stays a retryable
 * rate limit with its Retry-After, 403 refused credentials fail the channel over). Inside a stream,
 * where there is no status, an exception frame's `:exception-type` decides.
 */
import { type ErrorKind, GatewayError } from '../../core/errors.js';
import { headerValue, type UpstreamResponse, upstreamError } from '../shared/upstream-http.js';

function messageOf(text: string): { message: string; unparsed: boolean } {
  try {
    const body = JSON.parse(text) as { message?: unknown; Message?: unknown };
    const message = body?.message ?? body?.Message;
    if (typeof message === 'string') return { message, unparsed: false };
  } catch {
    // Not JSON: a proxy or load balancer answered.
  }
  const trimmed = text.trim();
  return { message: trimmed.length > 0 ? trimmed.slice(0, 500) : 'no error message', unparsed: trimmed.length > 0 };
}

export function mapBedrockError(status: number, text: string, headers: UpstreamResponse['headers']): GatewayError {
  const type = headerValue(headers, 'x-amzn-errortype')?.split(':')[0] || undefined;
  const { message, unparsed } = messageOf(text);
  return upstreamError(status, `bedrock upstream: ${type ? `${type}: ` : ''}${message}`, headers, type, unparsed);
}

const KIND_BY_STREAM_EXCEPTION: Record<string, { kind: ErrorKind; retryable: boolean }> = {
  throttlingException: { kind: 'rate_limit', retryable: true },
  serviceUnavailableException: { kind: 'overloaded', retryable: true },
  internalServerException: { kind: 'upstream', retryable: true },
  modelStreamErrorException: { kind: 'upstream', retryable: true },
  modelTimeoutException: { kind: 'timeout', retryable: true },
  validationException: { kind: 'invalid_request', retryable: false },
};

/** An exception frame (`:message-type: exception`) of a stream → a GatewayError. */
export function mapBedrockStreamException(type: string | undefined, payload: Uint8Array): GatewayError {
  const { message } = messageOf(new TextDecoder().decode(payload));
  const name = type ?? 'unknown exception';
  const { kind, retryable } = KIND_BY_STREAM_EXCEPTION[name] ?? { kind: 'upstream' as const, retryable: true };
  return new GatewayError(kind, `bedrock upstream: ${name}: ${message}`, { retryable, code: name });
}
