/**
 * BFL failures → GatewayError: non-2xx answers (`{detail: string | [{loc, msg}]}`, FastAPI
 * style) and the failure statuses a polled task can end in.
 */
import { errorBodyObject } from '../shared/error-body-object.js';
import { GatewayError } from '../../core/errors.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

/** A non-2xx answer to a submit or a poll. 402 (no credits) stays retryable: another channel may have some. */
export function mapBflError(status: number, bodyText: string, headers: UpstreamResponse['headers']): GatewayError {
  const message = describeBflError(bodyText) || `upstream answered HTTP ${status}`;
  return upstreamError(status, status === 402 ? `BFL account out of credits: ${message}` : message, headers);
}

/** The error a task ends with when its status is terminal but not `Ready`. */
export function bflTaskError(status: string, details: unknown): GatewayError {
  const why = describeDetails(details);
  switch (status) {
    case 'Request Moderated':
      return new GatewayError('invalid_request', `The prompt was rejected by the image provider's content policy (moderated request)${why}.`, {
        code: 'content_policy_violation',
        errorType: 'upstream.refused',
      });
    case 'Content Moderated':
      return new GatewayError('invalid_request', `The generated image was withheld by the image provider's content policy (moderated content)${why}.`, {
        code: 'content_policy_violation',
        errorType: 'upstream.refused',
      });
    case 'Task not found':
      return new GatewayError('upstream', 'BFL no longer knows the task (Task not found)', { retryable: true });
    default:
      return new GatewayError('upstream', `BFL task failed (${status})${why}`, { retryable: true });
  }
}

function describeBflError(bodyText: string): string {
  const parsed = errorBodyObject(bodyText);
  if (!parsed) return bodyText.trim().slice(0, 500);
  const { detail, message } = parsed;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map(describeValidationItem).join('; ');
  if (typeof message === 'string') return message;
  return bodyText.trim().slice(0, 500);
}

/** `{loc:["body","width"], msg:"Input should be …"}` → `width: Input should be …`. */
function describeValidationItem(item: unknown): string {
  if (item === null || typeof item !== 'object') return String(item);
  const { loc, msg } = item as { loc?: unknown; msg?: unknown };
  const where = Array.isArray(loc) ? loc.filter((part) => part !== 'body').join('.') : '';
  const text = typeof msg === 'string' ? msg : JSON.stringify(item);
  return where ? `${where}: ${text}` : text;
}

function describeDetails(details: unknown): string {
  if (details === null || details === undefined) return '';
  if (typeof details === 'string') return details ? `: ${details}` : '';
  if (typeof details !== 'object') return `: ${String(details)}`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(details as Record<string, unknown>)) {
    parts.push(`${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  }
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}
