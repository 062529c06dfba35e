/** Where Runway's API routes are and how a request to them is authenticated and versioned. */
import { upstreamIdPathSegment } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';

/** The API version every request names (`X-Runway-Version`); channel option `runwayVersion` replaces it. */
const RUNWAY_API_VERSION = '2024-11-06';
const VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** `path` (e.g. `/v1/tasks/…`) under the channel's base URL (Runway's API host). */
export function runwayUrl(channel: ChannelConfig, path: string): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}${path}`;
}

export function runwayTaskUrl(channel: ChannelConfig, id: string): string {
  return runwayUrl(channel, `/v1/tasks/${upstreamIdPathSegment(id)}`);
}

/** Bearer key, the API version, then the channel's own headers. */
export function runwayHeaders(channel: ChannelConfig, json: boolean): Record<string, string> {
  const version = channel.options.runwayVersion;
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${channel.apiKey}`,
    'x-runway-version': typeof version === 'string' && VERSION.test(version) ? version : RUNWAY_API_VERSION,
  };
  if (json) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}
