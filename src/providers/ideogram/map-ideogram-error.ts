/**
 * Ideogram's non-2xx answers → GatewayError. Ideogram answers FastAPI style: `{"detail": "…"}`,
 * or `{"detail": [{loc, msg, type}]}` for invalid fields. A 422 with a message is its safety
 * check refusing the prompt or image: a client error, marked `content_policy_violation` so
 * surfaces can say so (the imagegen2 surface answers it with 422, as Ideogram does).
 */
import { GatewayError } from '../../core/errors.js';
import type { IdeogramErrorBody } from '../../core/wire/ideogram-types.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

export const CONTENT_POLICY_CODE = 'content_policy_violation';

export function mapIdeogramError(status: number, bodyText: string, headers: UpstreamResponse['headers']): GatewayError {
  const { message, validation } = describe(bodyText);
  const text = message || `upstream answered HTTP ${status}`;
  if (status === 422 && !validation) {
    return new GatewayError('invalid_request', text, { upstreamStatus: status, code: CONTENT_POLICY_CODE });
  }
  return upstreamError(status, text, headers);
}

function describe(bodyText: string): { message: string; validation: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { message: bodyText.trim().slice(0, 500), validation: false };
  }
  const detail = (parsed as Partial<IdeogramErrorBody> | null)?.detail;
  if (typeof detail === 'string') return { message: detail, validation: false };
  if (Array.isArray(detail)) {
    const problems = detail.map((d) => [d?.loc?.filter((l) => l !== 'body').join('.'), d?.msg].filter(Boolean).join(': '));
    return { message: problems.join('; '), validation: true };
  }
  const other = parsed as { message?: unknown; error?: unknown } | null;
  if (typeof other?.message === 'string') return { message: other.message, validation: false };
  if (typeof other?.error === 'string') return { message: other.error, validation: false };
  return { message: bodyText.trim().slice(0, 500), validation: false };
}
