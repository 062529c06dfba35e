/**
 * A non-2xx Ark answer (`{error:{code, message}}` with an HTTP status) → GatewayError. 400
 * `InvalidParameter` and the like are the client's (invalid_request); a content-moderation code
 * (`InputTextSensitiveContentDetected`, `OutputVideoSensitiveContentDetected`,
 * `SensitiveContentDetected.*`, `…RiskDetection`) is invalid_request with code `content_policy`;
 * 401/403 (key, overdue account, no access) and a model or endpoint this account lacks are the
 * channel's (upstream, retryable elsewhere); 429 is rate_limit with Retry-After; 5xx retryable.
 */
import { GatewayError } from '../../core/errors.js';
import { type UpstreamResponse, upstreamError } from '../shared/upstream-http.js';
import { cleanArkText } from './clean-ark-text.js';

interface ArkErrorBody {
  code: string;
  message: string;
}

/** Codes of Ark's content checks on the prompt, the input images or the output video. */
export function isArkContentPolicyCode(code: string): boolean {
  return /SensitiveContent|RiskDetection/.test(code);
}

/** Codes that say this channel cannot run the model (closed, missing or not activated endpoint). */
function isChannelModelCode(code: string): boolean {
  return /^(InvalidEndpoint|InvalidEndpointOrModel|ModelNotOpen|ModelNotFound)/.test(code);
}

function readArkErrorBody(text: string, secrets: readonly string[]): ArkErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not Ark's own error shape (a proxy's or load balancer's page): nothing in it is worth showing.
    return { code: '', message: '' };
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (error === null || typeof error !== 'object') return { code: '', message: '' };
  const { code, message } = error as { code?: unknown; message?: unknown };
  return { code: cleanArkText(code, secrets, 100), message: cleanArkText(message, secrets) };
}

export function mapArkHttpError(status: number, bodyText: string, headers: UpstreamResponse['headers'], secrets: readonly string[]): GatewayError {
  const { code, message } = readArkErrorBody(bodyText, secrets);
  const said = [code, message].filter(Boolean).join(': ') || `HTTP ${status}`;
  if (code && isArkContentPolicyCode(code) && !/DetectionError/.test(code)) {
    return new GatewayError('invalid_request', `The video provider refused the request under its content policy: ${said}`, {
      code: 'content_policy',
      upstreamStatus: status,
    });
  }
  if ((status === 400 || status === 404) && isChannelModelCode(code)) {
    return new GatewayError('upstream', `the upstream cannot run this model on this channel (${said})`, { upstreamStatus: status, retryable: true, code });
  }
  if (status === 404) return new GatewayError('upstream', `the upstream answered not found (${said})`, { upstreamStatus: status, retryable: true, code });
  return upstreamError(status, `Ark answered ${said}`, headers, code || undefined);
}
