/**
 * The URL and headers of a request to an Anthropic upstream.
 */
import { readErrorText, sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt } from '../types.js';
import { mapAnthropicError } from './map-anthropic-error.js';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_VERSION = '2023-06-01';

/** `${baseUrl}/v1/messages`; the base URL carries no `/v1`. */
export function anthropicMessagesUrl(attempt: Attempt): string {
  const base = (attempt.channel.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return `${base}/v1/messages`;
}

/**
 * `clientHeaders` are the client's own `anthropic-version` / `anthropic-beta` on pass-through;
 * a translated request uses the channel's version and no beta.
 */
export function anthropicHeaders(attempt: Attempt, clientHeaders: Record<string, string> = {}): Record<string, string> {
  const option = attempt.channel.options.anthropicVersion;
  const headers: Record<string, string> = {
    ...attempt.channel.headers,
    'content-type': 'application/json',
    'x-api-key': attempt.channel.apiKey,
    'anthropic-version': clientHeaders['anthropic-version'] ?? (typeof option === 'string' ? option : DEFAULT_VERSION),
  };
  if (clientHeaders['anthropic-beta']) headers['anthropic-beta'] = clientHeaders['anthropic-beta'];
  return headers;
}

/** Where a Messages API request goes and how: Anthropic's API, or Claude on a cloud (Vertex AI). */
export interface AnthropicEndpoint {
  url(attempt: Attempt, stream: boolean): string;
  headers(attempt: Attempt, clientHeaders?: Record<string, string>): Record<string, string> | Promise<Record<string, string>>;
  /** The Messages body as the upstream takes it (a cloud names the model in its URL, the version in the body). */
  body(body: Record<string, unknown>, clientHeaders?: Record<string, string>): Record<string, unknown>;
  /**
   * Sends the request itself, for a cloud that signs the body or frames its answer (Bedrock):
   * resolves with a 2xx answer whose stream is Anthropic SSE, throws the mapped error otherwise.
   * Absent: sent as it is, errors read in Anthropic's shape.
   */
  send?(attempt: Attempt, request: { url: string; headers: Record<string, string>; body: string; stream: boolean }): Promise<UpstreamResponse>;
}

export const ANTHROPIC_API_ENDPOINT: AnthropicEndpoint = {
  url: anthropicMessagesUrl,
  headers: anthropicHeaders,
  body: (body) => body,
};

/** POSTs a Messages body; resolves with a 2xx answer, throws the mapped upstream error otherwise. */
export async function postAnthropic(
  endpoint: AnthropicEndpoint,
  attempt: Attempt,
  body: Record<string, unknown>,
  clientHeaders?: Record<string, string>,
): Promise<UpstreamResponse> {
  const made = endpoint.headers(attempt, clientHeaders);
  const headers = made instanceof Promise ? await made : made;
  const stream = body.stream === true;
  const request = { url: endpoint.url(attempt, stream), headers, body: JSON.stringify(endpoint.body(body, clientHeaders)) };
  if (endpoint.send) return endpoint.send(attempt, { ...request, stream });
  const response = await sendUpstream({ ...request, signal: attempt.signal, timeoutMs: attempt.channel.timeoutMs });
  if (response.status < 200 || response.status >= 300) {
    throw mapAnthropicError(response.status, await readErrorText(response.body), response.headers);
  }
  return response;
}
