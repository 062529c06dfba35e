/**
 * OAuth 2.0 access tokens for a service account (RFC 7523 JWT bearer grant, as Google documents
 * it for server-to-server calls): a JWT signed RS256 with the key file's private key, claims
 * `iss` = the account's email, `scope` = cloud-platform, `aud` = the token URI, an hour long,
 * POSTed to the key file's `token_uri`. Tokens are cached per account and renewed five minutes
 * before they expire; concurrent calls share one exchange.
 */
import { createSign } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import { readErrorText, readJson, sendUpstream } from '../shared/upstream-http.js';
import type { ServiceAccount } from './service-account.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_LIFETIME_S = 3600;
const REFRESH_BEFORE_MS = 5 * 60_000;
const TOKEN_TIMEOUT_MS = 15_000;
const MAX_CACHED = 64;
const NEVER_ABORTED = new AbortController().signal;

interface CachedToken {
  token: string;
  refreshAt: number;
}

const cached = new Map<string, CachedToken>();
const fetching = new Map<string, Promise<CachedToken>>();

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** The signed assertion for `account`, issued at `nowS` (Unix seconds). */
export function signedAssertion(account: ServiceAccount, nowS: number): string {
  const header = { alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) };
  const claims = { iss: account.clientEmail, scope: CLOUD_PLATFORM_SCOPE, aud: account.tokenUri, iat: nowS, exp: nowS + JWT_LIFETIME_S };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  let signature: Buffer;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(account.privateKey);
  } catch {
    throw new GatewayError('upstream', `the service-account key of ${account.clientEmail} cannot sign (private_key is not a PEM RSA key)`, {
      retryable: true,
      errorType: 'upstream.auth',
    });
  }
  return `${unsigned}.${base64url(signature)}`;
}

export async function googleAccessToken(account: ServiceAccount): Promise<string> {
  const key = `${account.tokenUri}\n${account.clientEmail}\n${account.privateKeyId ?? ''}\n${account.privateKey.length}`;
  const hit = cached.get(key);
  if (hit && hit.refreshAt > Date.now()) return hit.token;
  let pending = fetching.get(key);
  if (!pending) {
    pending = exchange(account).finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  const fresh = await pending;
  if (cached.size >= MAX_CACHED) cached.clear();
  cached.set(key, fresh);
  return fresh.token;
}

/** Forgets cached tokens (tests). */
export function clearGoogleAccessTokens(): void {
  cached.clear();
}

async function exchange(account: ServiceAccount): Promise<CachedToken> {
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: signedAssertion(account, Math.floor(Date.now() / 1000)),
  });
  const response = await sendUpstream({
    url: account.tokenUri,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: NEVER_ABORTED,
    timeoutMs: TOKEN_TIMEOUT_MS,
  });
  if (response.status !== 200) {
    const said = (await readErrorText(response.body)).slice(0, 300);
    throw new GatewayError('upstream', `Google refused the service account's token request (HTTP ${response.status}): ${said}`, {
      upstreamStatus: response.status,
      retryable: true,
      errorType: 'upstream.auth',
    });
  }
  const answer = await readJson<{ access_token?: unknown; expires_in?: unknown }>(response.body);
  const expiresIn = Number(answer.expires_in);
  if (typeof answer.access_token !== 'string' || answer.access_token === '' || !Number.isFinite(expiresIn)) {
    throw new GatewayError('upstream', "Google answered the service account's token request without an access token", { retryable: true });
  }
  return { token: answer.access_token, refreshAt: Date.now() + Math.max(0, expiresIn * 1000 - REFRESH_BEFORE_MS) };
}
