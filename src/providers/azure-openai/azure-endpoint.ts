/**
 * Azure OpenAI's two layouts of the OpenAI API on a resource (`https://<resource>.openai.azure.com`):
 * - the v1 API (the default): `<resource>/openai/v1/<path>`, the deployment named as `model`;
 * - deployments, when the channel sets `apiVersion`: `<resource>/openai/deployments/<deployment>/<path>?api-version=<v>`
 *   (the Responses API has no deployment segment: `<resource>/openai/responses?api-version=<v>`).
 * The deployment is the upstream model: the channel's model map says which public model goes to which.
 * Authentication: the `api-key` header with the channel's key, or with `auth: entra` a Microsoft
 * Entra bearer token (`entra-token.ts`; the channel's key is then the app's client secret).
 */
import { GatewayError } from '../../core/errors.js';
import type { OpenAIEndpoint, OpenAIPath } from '../openai/openai-endpoint.js';
import type { ChannelConfig } from '../types.js';
import { DEFAULT_AUTHORITY_HOST, type EntraClient, entraToken } from './entra-token.js';

/** The resource URL without a trailing `/openai/v1` or `/openai` an operator may have pasted. */
function resourceUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/openai(\/v1)?$/, '');
}

function apiVersionOf(channel: ChannelConfig): string | undefined {
  const version = channel.options.apiVersion;
  return typeof version === 'string' && version !== '' && version !== 'v1' ? version : undefined;
}

export function azureUrl(channel: ChannelConfig, path: OpenAIPath, deployment: string): string {
  const resource = resourceUrl(channel.baseUrl);
  const version = apiVersionOf(channel);
  if (version === undefined) return `${resource}/openai/v1${path}`;
  const query = `?api-version=${encodeURIComponent(version)}`;
  if (path === '/responses') return `${resource}/openai/responses${query}`;
  return `${resource}/openai/deployments/${encodeURIComponent(deployment)}${path}${query}`;
}

function stringOption(channel: ChannelConfig, name: string): string | undefined {
  const value = channel.options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function entraClient(channel: ChannelConfig): EntraClient {
  const tenantId = stringOption(channel, 'tenantId');
  const clientId = stringOption(channel, 'clientId');
  if (!tenantId || !clientId || !channel.apiKey) {
    throw new GatewayError('upstream', `channel ${channel.name}: auth: entra needs options tenantId and clientId, and the client secret as the channel's key`, {
      retryable: true,
      errorType: 'upstream.auth',
    });
  }
  return { authorityHost: stringOption(channel, 'authorityHost') ?? DEFAULT_AUTHORITY_HOST, tenantId, clientId, clientSecret: channel.apiKey };
}

function extraHeaders(channel: ChannelConfig, into: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(channel.headers)) into[name.toLowerCase()] = value;
  return into;
}

export const AZURE_ENDPOINT: OpenAIEndpoint = {
  url: azureUrl,
  headers(channel) {
    if (channel.options.auth === 'entra') {
      return entraToken(entraClient(channel)).then((token) => extraHeaders(channel, { 'content-type': 'application/json', authorization: `Bearer ${token}` }));
    }
    return extraHeaders(channel, { 'content-type': 'application/json', 'api-key': channel.apiKey });
  },
};
