/** Where Luma's Dream Machine routes are and how a request to them is authenticated. */
import { upstreamIdPathSegment } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';

const API_PREFIX = '/dream-machine/v1';

/**
 * `path` (e.g. `/generations/video`) under the channel's base URL. The base URL is Luma's host;
 * one that already ends with `/dream-machine/v1` (the SDK's base URL) is not given a second one.
 */
export function lumaUrl(channel: ChannelConfig, path: string): string {
  const base = channel.baseUrl.replace(/\/+$/, '');
  return base.endsWith(API_PREFIX) ? `${base}${path}` : `${base}${API_PREFIX}${path}`;
}

export function lumaGenerationUrl(channel: ChannelConfig, id: string): string {
  return lumaUrl(channel, `/generations/${upstreamIdPathSegment(id)}`);
}

/** Bearer key plus the channel's own headers. */
export function lumaHeaders(channel: ChannelConfig, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${channel.apiKey}` };
  if (json) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}
