/** Where the MJ proxy's routes are and how a request to it is authenticated. */
import type { ChannelConfig } from '../types.js';

/**
 * The proxy's route `path` (starting with `/`, without `/mj`) under the channel's base URL. The
 * base URL is the proxy's host; one that already ends with `/mj` is not given a second one.
 */
export function mjUrl(channel: ChannelConfig, path: string): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  return /\/mj$/i.test(base) ? `${base}${path}` : `${base}/mj${path}`;
}

/** `mj-api-secret` (when the channel has one) plus the channel's own headers. */
export function mjHeaders(channel: ChannelConfig, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (json) headers['content-type'] = 'application/json';
  if (channel.apiKey) headers['mj-api-secret'] = channel.apiKey;
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}
