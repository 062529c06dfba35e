/**
 * Upstream errors → GatewayError. Reads OpenAI's `{error:{message,type,code}}` and the
 * variants compatible servers use (`{error:"…"}`, `{message}`, `{detail}`), or plain text.
 */
import { GatewayError } from '../../core/errors.js';
import { upstreamError, type UpstreamResponse } from '../shared/upstream-http.js';

interface ErrorDescription {
  message: string;
  code?: string;
  /** The message is the body's raw text. */
  unparsed?: boolean;
}

/** A non-2xx answer. */
export function mapOpenAIError(status: number, bodyText: string, headers: UpstreamResponse['headers']): GatewayError {
  const { message, code, unparsed } = describeErrorText(bodyText);
  const text = message || `upstream answered HTTP ${status}`;
  // The upstream's credential codes describe the channel's key, not the client's: keep them out.
  return upstreamError(status, text, headers, status === 401 || status === 403 ? undefined : code, unparsed && message !== '');
}

/** An `{"error":…}` chunk in the middle of an upstream stream: too late to retry elsewhere. */
export function mapOpenAIStreamError(document: Record<string, unknown>): GatewayError {
  const { message, code } = describeErrorDocument(document) ?? { message: '' };
  const kind = code === 'rate_limit_exceeded' ? 'rate_limit' : code === 'overloaded' ? 'overloaded' : 'upstream';
  return new GatewayError(kind, `upstream stream failed: ${message || 'unknown error'}`, { code, retryable: false });
}

function describeErrorText(bodyText: string): ErrorDescription {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    return { message: bodyText.trim().slice(0, 500), unparsed: true };
  }
  return describeErrorDocument(parsed) ?? { message: bodyText.trim().slice(0, 500), unparsed: true };
}

function describeErrorDocument(parsed: unknown): ErrorDescription | undefined {
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const document = parsed as Record<string, unknown>;
  const error = document.error;
  if (typeof error === 'string') return { message: error };
  if (error !== null && typeof error === 'object') {
    const { message, code } = error as Record<string, unknown>;
    return { message: typeof message === 'string' ? message : JSON.stringify(error), code: stringCode(code) };
  }
  if (typeof document.message === 'string') return { message: document.message, code: stringCode(document.code) };
  if (typeof document.detail === 'string') return { message: document.detail };
  return undefined;
}

function stringCode(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
