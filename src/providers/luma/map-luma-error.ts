/**
 * A non-2xx Luma answer (`{detail}`: a string, or FastAPI's list of `{loc, msg}`) → GatewayError:
 * 400/422 the request's fault, 401/403 the channel's credentials (another channel may do),
 * 429 a rate limit with its Retry-After, 5xx retryable, 404 a misconfigured base URL (retryable). Messages never carry the key or a URL.
 */
import { GatewayError } from '../../core/errors.js';
import { cleanVendorText } from '../shared/clean-vendor-text.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

const MAX_DETAILS = 5;

export function mapLumaError(status: number, body: unknown, headers: UpstreamResponse['headers'], secrets: readonly string[] = []): GatewayError {
  const detail = cleanVendorText(describeDetail(body), secrets);
  if (status === 404) {
    // Polls read 404 themselves (a generation Luma no longer has); elsewhere it is a wrong base URL or route.
    return new GatewayError('upstream', `Luma has no such route (HTTP 404)${detail ? `: ${detail}` : ''}; is the base URL Luma's API host?`, {
      upstreamStatus: status,
      retryable: true,
    });
  }
  return upstreamError(status, `Luma answered HTTP ${status}${detail ? `: ${detail}` : ''}`, headers);
}

function describeDetail(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body === null || typeof body !== 'object') return '';
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return '';
  return detail
    .slice(0, MAX_DETAILS)
    .map((item) => {
      if (item === null || typeof item !== 'object') return '';
      const { loc, msg } = item as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.filter((part) => part !== 'body').join('.') : '';
      return typeof msg === 'string' ? (where ? `${where}: ${msg}` : msg) : '';
    })
    .filter(Boolean)
    .join('; ');
}
