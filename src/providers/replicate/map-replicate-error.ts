/**
 * Replicate failures → GatewayError: non-2xx answers (problem details `{title, detail, status}`)
 * and predictions that ended `failed` or `canceled`.
 */
import { errorBodyObject } from '../shared/error-body-object.js';
import { GatewayError } from '../../core/errors.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

/** Failure texts that mean the prompt or the image broke the model's content rules. */
const CONTENT_POLICY = /nsfw|safety|moderat|content polic|sensitive|flagged|inappropriate/i;

/** A non-2xx answer. 402 (no credit) stays retryable: another channel may have some. */
export function mapReplicateError(status: number, bodyText: string, headers: UpstreamResponse['headers']): GatewayError {
  const message = describeReplicateError(bodyText) || `upstream answered HTTP ${status}`;
  return upstreamError(status, status === 402 ? `Replicate account out of credit: ${message}` : message, headers);
}

/** A prediction that ended without output. */
export function predictionError(status: string, errorText: unknown): GatewayError {
  const text = typeof errorText === 'string' ? errorText.trim() : errorText ? JSON.stringify(errorText) : '';
  if (status === 'failed' && CONTENT_POLICY.test(text)) {
    return new GatewayError('invalid_request', `The image provider refused the request under its content policy: ${text}`, {
      code: 'content_policy_violation',
      errorType: 'upstream.refused',
    });
  }
  if (status === 'canceled') return new GatewayError('upstream', 'the Replicate prediction was canceled upstream', { retryable: true });
  return new GatewayError('upstream', `Replicate prediction ${status}${text ? `: ${text}` : ''}`, { retryable: true });
}

function describeReplicateError(bodyText: string): string {
  const parsed = errorBodyObject(bodyText);
  if (!parsed) return bodyText.trim().slice(0, 500);
  const { detail, title, error, invalid_fields: invalidFields } = parsed;
  const fields = Array.isArray(invalidFields) ? invalidFields.map(describeInvalidField).filter(Boolean) : [];
  if (fields.length > 0) return `${typeof title === 'string' ? `${title}: ` : ''}${fields.join('; ')}`;
  if (typeof detail === 'string' && detail.trim()) return detail.trim();
  if (typeof error === 'string') return error;
  if (typeof title === 'string') return title;
  return bodyText.trim().slice(0, 500);
}

/** `{field:"input.width", description:"Must be less than or equal to 1440"}` → `input.width: Must be …`. */
function describeInvalidField(item: unknown): string {
  if (item === null || typeof item !== 'object') return '';
  const { field, description } = item as { field?: unknown; description?: unknown };
  if (typeof description !== 'string') return '';
  return typeof field === 'string' && field ? `${field}: ${description}` : description;
}
