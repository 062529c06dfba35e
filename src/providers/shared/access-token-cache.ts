/**
 * Bearer tokens a cloud's token endpoint issues for a channel's credential (Microsoft Entra for
 * Azure OpenAI, Google OAuth for Vertex AI): fetched by an OAuth form POST, cached per credential,
 * renewed five minutes before they expire, and fetched once however many calls wait for one. The
 * fetch is not tied to the first caller's signal, since other calls wait on it too.
 */
import { GatewayError } from '../../core/errors.js';
import { readErrorText, readJson, sendUpstream } from './upstream-http.js';

const REFRESH_BEFORE_MS = 5 * 60_000;
const TOKEN_TIMEOUT_MS = 15_000;
const NEVER_ABORTED = new AbortController().signal;

interface CachedToken {
  token: string;
  /** `Date.now()` after which the token is fetched anew. */
  refreshAt: number;
}

export class AccessTokenCache {
  private readonly cached = new Map<string, CachedToken>();
  private readonly fetching = new Map<string, Promise<CachedToken>>();

  constructor(private readonly maxCached = 64) {}

  /** The token cached under `key`, or the one `fetch` brings (shared with every call that waits meanwhile). */
  async get(key: string, fetch: () => Promise<CachedToken>): Promise<string> {
    const hit = this.cached.get(key);
    if (hit && hit.refreshAt > Date.now()) return hit.token;
    let pending = this.fetching.get(key);
    if (!pending) {
      pending = fetch().finally(() => this.fetching.delete(key));
      this.fetching.set(key, pending);
    }
    const fresh = await pending;
    if (this.cached.size >= this.maxCached) this.cached.clear();
    this.cached.set(key, fresh);
    return fresh.token;
  }

  /** Forgets every cached token (tests). */
  clear(): void {
    this.cached.clear();
  }
}

/**
 * POSTs an OAuth token request form; resolves with the token and when to renew it. A refusal is
 * `refused(status, said)`: the channel's credential was turned down, which fails the channel over.
 */
export async function requestAccessToken(
  url: string,
  form: URLSearchParams,
  who: string,
  refused: (status: number, said: string) => GatewayError,
): Promise<CachedToken> {
  const response = await sendUpstream({
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    signal: NEVER_ABORTED,
    timeoutMs: TOKEN_TIMEOUT_MS,
  });
  if (response.status !== 200) throw refused(response.status, (await readErrorText(response.body)).slice(0, 300));
  const answer = await readJson<{ access_token?: unknown; expires_in?: unknown }>(response.body);
  const expiresIn = Number(answer.expires_in);
  if (typeof answer.access_token !== 'string' || answer.access_token === '' || !Number.isFinite(expiresIn)) {
    throw new GatewayError('upstream', `${who} answered the token request without an access token`, { retryable: true });
  }
  return { token: answer.access_token, refreshAt: Date.now() + Math.max(0, expiresIn * 1000 - REFRESH_BEFORE_MS) };
}
