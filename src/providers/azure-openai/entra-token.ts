/**
 * Microsoft Entra ID access tokens for Azure OpenAI by the client-credentials grant: the channel's
 * tenant and app (client) id, its sealed credential as the client secret, scope
 * `https://cognitiveservices.azure.com/.default`. A token is cached per tenant, client and secret,
 * refreshed five minutes before it expires, and fetched once however many calls wait for it.
 */
import { GatewayError } from '../../core/errors.js';
import { readErrorText, readJson, sendUpstream } from '../shared/upstream-http.js';

export const ENTRA_SCOPE = 'https://cognitiveservices.azure.com/.default';
export const DEFAULT_AUTHORITY_HOST = 'https://login.microsoftonline.com';

/** How early a cached token is replaced: Entra tokens last about an hour. */
const REFRESH_BEFORE_MS = 5 * 60_000;
const MAX_CACHED = 256;
const TOKEN_TIMEOUT_MS = 15_000;
const NEVER_ABORTED = new AbortController().signal;

export interface EntraClient {
  authorityHost: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
}

interface CachedToken {
  token: string;
  /** `Date.now()` after which the token is fetched anew. */
  refreshAt: number;
}

const cached = new Map<string, CachedToken>();
const fetching = new Map<string, Promise<CachedToken>>();

export async function entraToken(client: EntraClient, now = Date.now()): Promise<string> {
  const key = `${client.authorityHost}\n${client.tenantId}\n${client.clientId}\n${client.clientSecret}`;
  const hit = cached.get(key);
  if (hit && hit.refreshAt > now) return hit.token;
  let pending = fetching.get(key);
  if (!pending) {
    pending = fetchToken(client).finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  const fresh = await pending;
  if (cached.size >= MAX_CACHED) cached.clear();
  cached.set(key, fresh);
  return fresh.token;
}

/** Forgets cached tokens (tests). */
export function clearEntraTokens(): void {
  cached.clear();
}

// Not tied to the first caller's signal: other calls wait on the same fetch.
async function fetchToken(client: EntraClient): Promise<CachedToken> {
  const url = `${client.authorityHost.replace(/\/+$/, '')}/${encodeURIComponent(client.tenantId)}/oauth2/v2.0/token`;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    scope: ENTRA_SCOPE,
  });
  const response = await sendUpstream({
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: NEVER_ABORTED,
    timeoutMs: TOKEN_TIMEOUT_MS,
  });
  if (response.status !== 200) {
    const said = (await readErrorText(response.body)).slice(0, 300);
    // The channel's credential was refused: the next channel may still serve the call.
    throw new GatewayError('upstream', `Microsoft Entra refused the channel's client credentials (HTTP ${response.status}): ${said}`, {
      upstreamStatus: response.status === 400 ? 401 : response.status,
      retryable: true,
      code: 'upstream_credentials',
    });
  }
  const answer = await readJson<{ access_token?: unknown; expires_in?: unknown }>(response.body);
  const expiresIn = typeof answer.expires_in === 'number' ? answer.expires_in : Number(answer.expires_in);
  if (typeof answer.access_token !== 'string' || answer.access_token === '' || !Number.isFinite(expiresIn)) {
    throw new GatewayError('upstream', 'Microsoft Entra answered the token request without an access token', { retryable: true });
  }
  return { token: answer.access_token, refreshAt: Date.now() + Math.max(0, expiresIn * 1000 - REFRESH_BEFORE_MS) };
}
