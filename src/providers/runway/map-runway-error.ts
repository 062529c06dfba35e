/**
 * A non-2xx Runway answer (`{error}`, with `issues` on some validation errors) → GatewayError:
 * 400 the request's fault, 401/403 the channel's credentials (another channel may do), 429 a
 * rate limit with its Retry-After, 5xx retryable (Runway sheds load with 502/503), 404 a
 * misconfigured base URL. Messages never carry the key or a URL.
 */
import { GatewayError } from '../../core/errors.js';
import { cleanVendorText } from '../shared/clean-vendor-text.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

const MAX_ISSUES = 5;

export function mapRunwayError(status: number, body: unknown, headers: UpstreamResponse['headers'], secrets: readonly string[] = []): GatewayError {
  const said = cleanVendorText(describeError(body), secrets);
  const message = `Runway answered HTTP ${status}${said ? `: ${said}` : ''}`;
  if (status === 404) {
    // Polls read 404 themselves (a task Runway no longer has); elsewhere it is a wrong base URL or route.
    return new GatewayError('upstream', `${message}; is the base URL Runway's API host?`, { upstreamStatus: status, retryable: true });
  }
  return upstreamError(status, message, headers);
}

function describeError(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === null || typeof body !== 'object') return '';
  const { error, issues } = body as { error?: unknown; issues?: unknown };
  const details = Array.isArray(issues)
    ? issues
        .slice(0, MAX_ISSUES)
        .map((issue) => {
          if (issue === null || typeof issue !== 'object') return '';
          const { path, message } = issue as { path?: unknown; message?: unknown };
          const where = Array.isArray(path) ? path.join('.') : '';
          return typeof message === 'string' ? (where ? `${where}: ${message}` : message) : '';
        })
        .filter(Boolean)
    : [];
  const head = typeof error === 'string' ? error : '';
  return [head, ...details].filter(Boolean).join('; ');
}
