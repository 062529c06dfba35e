/**
 * The URL and headers of a request to an Anthropic upstream.
 */
import type { Attempt } from '../types.js';

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
