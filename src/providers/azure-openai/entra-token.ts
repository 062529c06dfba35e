/**
 * Microsoft Entra ID access tokens for Azure OpenAI by the client-credentials grant: the channel's
 * tenant and app (client) id, its sealed credential as the client secret, scope
 * `https://cognitiveservices.azure.com/.default`; cached and renewed as `AccessTokenCache` does.
 */
import { GatewayError } from '../../core/errors.js';
import { AccessTokenCache, requestAccessToken } from '../shared/access-token-cache.js';

export const ENTRA_SCOPE = 'https://cognitiveservices.azure.com/.default';
export const DEFAULT_AUTHORITY_HOST = 'https://login.microsoftonline.com';

export interface EntraClient {
  authorityHost: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

const tokens = new AccessTokenCache(256);

export function entraToken(client: EntraClient): Promise<string> {
  const key = `${client.authorityHost}\n${client.tenantId}\n${client.clientId}\n${client.clientSecret}`;
  return tokens.get(key, () =>
    requestAccessToken(
      `${client.authorityHost.replace(/\/+$/, '')}/${encodeURIComponent(client.tenantId)}/oauth2/v2.0/token`,
      new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: ENTRA_SCOPE }),
      'Microsoft Entra',
      (status, said) =>
        // The channel's credential was refused: the next channel may still serve the call.
        new GatewayError('upstream', `Microsoft Entra refused the channel's client credentials (HTTP ${status}): ${said}`, {
          upstreamStatus: status === 400 ? 401 : status,
          retryable: true,
          code: 'upstream_credentials',
        }),
    ),
  );
}

/** Forgets cached tokens (tests). */
export function clearEntraTokens(): void {
  tokens.clear();
}
