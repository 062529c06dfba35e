/**
 * MiniMax failures → GatewayError. MiniMax answers most errors with HTTP 200 and a non-zero
 * `base_resp.status_code`; real HTTP errors come from its front (429, 5xx) and are mapped as
 * every provider maps them. The vendor's message is kept (bounded, the channel key scrubbed).
 */
import { GatewayError } from '../../core/errors.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

export interface MinimaxBaseResp {
  status_code?: unknown;
  status_msg?: unknown;
}

const MAX_MESSAGE_CHARS = 500;

/** The error a `base_resp` stands for, or undefined when it says success (code 0 or none). */
export function baseRespError(baseResp: MinimaxBaseResp | undefined, secrets: readonly string[]): GatewayError | undefined {
  const code = baseResp?.status_code;
  if (code === undefined || code === null || code === 0) return undefined;
  const said = minimaxMessage(baseResp?.status_msg, secrets);
  const detail = said ? `: ${said}` : '';
  switch (code) {
    case 1002:
    case 1039:
      return new GatewayError('rate_limit', `MiniMax rate limit reached (${code})${detail}`, { retryable: true });
    case 1004:
    case 2049:
      return new GatewayError('upstream', `MiniMax refused the channel credentials (${code})${detail}`, { retryable: true });
    case 1008:
      // Another channel (another account) may still have balance.
      return new GatewayError('upstream', `MiniMax account balance is insufficient (1008)${detail}`, { retryable: true });
    case 1026:
      return new GatewayError('invalid_request', `MiniMax refused the request as sensitive content (1026)${detail}`, { code: 'content_policy' });
    case 1027:
      return new GatewayError('invalid_request', `MiniMax refused the generated video as sensitive content (1027)${detail}`, { code: 'content_policy' });
    case 2013:
      return new GatewayError('invalid_request', `MiniMax refused the parameters (2013)${detail}`);
    default:
      return new GatewayError('upstream', `MiniMax error (${typeof code === 'number' ? code : JSON.stringify(String(code).slice(0, 32))})${detail}`, {
        retryable: true,
      });
  }
}

/** A non-2xx answer: its `base_resp` message when the body has one, else the body text. */
export function mapMinimaxHttpError(status: number, bodyText: string, headers: UpstreamResponse['headers'], secrets: readonly string[]): GatewayError {
  let said = '';
  try {
    const parsed = JSON.parse(bodyText) as { base_resp?: MinimaxBaseResp } | null;
    said = minimaxMessage(parsed?.base_resp?.status_msg, secrets);
  } catch {
    said = minimaxMessage(bodyText, secrets);
  }
  return upstreamError(status, said || `upstream answered HTTP ${status}`, headers);
}

/** A vendor text made safe to show: trimmed, bounded, without the channel's credentials. */
export function minimaxMessage(text: unknown, secrets: readonly string[]): string {
  if (typeof text !== 'string') return '';
  let message = text.trim().slice(0, MAX_MESSAGE_CHARS * 2);
  for (const secret of secrets) {
    if (secret.length >= 4) message = message.split(secret).join('[redacted]');
  }
  return message.slice(0, MAX_MESSAGE_CHARS);
}
