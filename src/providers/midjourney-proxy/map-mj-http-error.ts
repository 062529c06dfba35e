/**
 * A non-2xx answer of the proxy → GatewayError. The proxy answers its own refusals with HTTP 200
 * and a `code`; an error status means the route, the credentials or the server itself failed.
 * Messages never carry the secret or the proxy's host.
 */
import { GatewayError } from '../../core/errors.js';
import { headerValue, type UpstreamResponse } from '../shared/upstream-http.js';
import { cleanMjText } from './clean-mj-text.js';
import { mjSubmitCodeError } from './map-mj-submit-answer.js';

/** The longest `Retry-After` honoured: a longer one is still a wait, just not a day-long one. */
const MAX_RETRY_AFTER_SECONDS = 3600;

export function mapMjHttpError(status: number, headers: UpstreamResponse['headers'], body: unknown, now = Date.now()): GatewayError {
  const options = { upstreamStatus: status };
  if (status === 401 || status === 403) {
    return new GatewayError('upstream', `upstream rejected the gateway's credentials (HTTP ${status})`, { ...options, retryable: true });
  }
  if (status === 429) {
    return new GatewayError('rate_limit', 'the MJ proxy is rate limiting the gateway', {
      ...options,
      retryable: true,
      retryAfter: retryAfterSeconds(headerValue(headers, 'retry-after'), now),
    });
  }
  if (status === 408 || status === 504) {
    return new GatewayError('timeout', `the MJ proxy timed out (HTTP ${status})`, { ...options, retryable: true });
  }
  if (status >= 500) return new GatewayError('upstream', `the MJ proxy failed (HTTP ${status})`, { ...options, retryable: true });
  // Some proxy builds answer their refusals with a 4xx and the usual `{code, description}`.
  const answer = body !== null && typeof body === 'object' ? (body as { code?: unknown; description?: unknown; properties?: unknown }) : undefined;
  if (typeof answer?.code === 'number' && answer.code !== 1) {
    const error = mjSubmitCodeError(answer.code, answer.description, answer.properties);
    return new GatewayError(error.kind, error.message, { ...options, code: error.code, retryable: error.retryable });
  }
  if (status === 404) return new GatewayError('upstream', "the MJ proxy has no such route (HTTP 404): is the base URL the proxy's host?", options);
  const said = cleanMjText(answer?.description ?? (answer as { message?: unknown } | undefined)?.message);
  return new GatewayError('upstream', `the MJ proxy answered HTTP ${status}${said ? `: ${said}` : ''}`, { ...options, retryable: false });
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date), bounded; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}
