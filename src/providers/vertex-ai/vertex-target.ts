/**
 * Where a Vertex AI publisher model is called and with which token:
 * `<endpoint>/v1/projects/<project>/locations/<location>/publishers/<publisher>/models/<model>:<method>`,
 * the endpoint `https://<location>-aiplatform.googleapis.com` for a region and
 * `https://aiplatform.googleapis.com` for `global` (a channel's `baseUrl` other than the default
 * replaces it). Channel options: `project` (default: the key file's `project_id`) and `location`
 * (default `global`); the channel's key is the service-account key file.
 */
import { GatewayError } from '../../core/errors.js';
import { modelPath } from '../shared/path-segment.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { googleAccessToken } from './google-access-token.js';
import { serviceAccountOf } from './service-account.js';
import { VERTEX_DEFAULT_BASE_URL } from './vertex-default-url.js';
import { GOOGLE_PROJECT_ID, VERTEX_LOCATION } from './vertex-options.js';

function misconfigured(channel: ChannelConfig, why: string): GatewayError {
  return new GatewayError('upstream', `channel ${channel.name}: ${why}`, { retryable: true, errorType: 'upstream.auth' });
}

function locationOf(channel: ChannelConfig): string {
  const location = channel.options.location ?? 'global';
  if (typeof location !== 'string' || !VERTEX_LOCATION.test(location))
    throw misconfigured(channel, 'option location must be a Vertex AI region (us-central1) or global');
  return location;
}

function projectOf(channel: ChannelConfig): string {
  const project = channel.options.project ?? serviceAccountOf(channel.name, channel.apiKey).projectId;
  if (typeof project !== 'string' || !GOOGLE_PROJECT_ID.test(project)) throw misconfigured(channel, 'option project must be a Google Cloud project id');
  return project;
}

export function vertexModelUrl(attempt: Attempt, publisher: 'google' | 'anthropic', method: string): string {
  const { channel } = attempt;
  const location = locationOf(channel);
  const base = channel.baseUrl.replace(/\/+$/, '');
  const endpoint = base === VERTEX_DEFAULT_BASE_URL && location !== 'global' ? `https://${location}-aiplatform.googleapis.com` : base;
  // `@` may stand in a path segment (RFC 3986 pchar): Claude's Vertex ids are `claude-…@<date>`.
  const model = modelPath(attempt.upstreamModel, { reserved: ':' }).replaceAll('%40', '@');
  return `${endpoint}/v1/projects/${projectOf(channel)}/locations/${location}/publishers/${publisher}/models/${model}:${method}`;
}

export async function vertexHeaders(attempt: Attempt, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const { channel } = attempt;
  const token = await googleAccessToken(serviceAccountOf(channel.name, channel.apiKey));
  return { ...channel.headers, ...extra, 'content-type': 'application/json', authorization: `Bearer ${token}` };
}
