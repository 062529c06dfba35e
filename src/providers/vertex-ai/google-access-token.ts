/**
 * OAuth 2.0 access tokens for a service account (RFC 7523 JWT bearer grant, as Google documents
 * it for server-to-server calls): a JWT signed RS256 with the key file's private key, claims
 * `iss` = the account's email, `scope` = cloud-platform, `aud` = the token URI, an hour long,
 * POSTed to the key file's `token_uri`. Tokens are cached per account and renewed five minutes
 * before they expire; concurrent calls share one exchange (`AccessTokenCache`).
 */
import { createSign } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import { AccessTokenCache, requestAccessToken } from '../shared/access-token-cache.js';
import type { ServiceAccount } from './service-account.js';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_LIFETIME_S = 3600;

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

const tokens = new AccessTokenCache();

export function googleAccessToken(account: ServiceAccount): Promise<string> {
  const key = `${account.tokenUri}\n${account.clientEmail}\n${account.privateKeyId ?? ''}\n${account.privateKey.length}`;
  return tokens.get(key, () => {
    const form = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signedAssertion(account, Math.floor(Date.now() / 1000)),
    });
    return requestAccessToken(
      account.tokenUri,
      form,
      'Google',
      (status, said) =>
        new GatewayError('upstream', `Google refused the service account's token request (HTTP ${status}): ${said}`, {
          upstreamStatus: status,
          retryable: true,
          errorType: 'upstream.auth',
        }),
    );
  });
}

/** Forgets cached tokens (tests). */
export function clearGoogleAccessTokens(): void {
  tokens.clear();
}
