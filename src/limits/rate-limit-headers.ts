/**
 * Rate-limit headers on answers, successful or refused, streamed or whole: admission leaves a
 * request's numbers (`RateLimitSnapshot`) under its request id, and one `onSend` step — which
 * runs before the first byte of any answer, a stream's included — writes them in the caller's
 * dialect: Anthropic's `anthropic-ratelimit-*` (reset as an RFC 3339 time) for the Anthropic
 * surface, OpenAI's `x-ratelimit-*` (reset as a duration, `1s`, `6m0s`) for every other one.
 * No rule, no header.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitSnapshot } from './contract.js';

export type RateLimitHeaderStyle = 'openai' | 'anthropic';

type Window = NonNullable<RateLimitSnapshot['requests']>;

export function rateLimitHeaders(snapshot: RateLimitSnapshot, style: RateLimitHeaderStyle, now: number): Record<string, string> {
  const headers: Record<string, string> = {};
  const put = (what: 'requests' | 'tokens', window: Window | undefined) => {
    if (!window) return;
    if (style === 'anthropic') {
      headers[`anthropic-ratelimit-${what}-limit`] = String(window.limit);
      headers[`anthropic-ratelimit-${what}-remaining`] = String(Math.max(0, Math.floor(window.remaining)));
      headers[`anthropic-ratelimit-${what}-reset`] = rfc3339(Math.max(now, window.resetAt));
    } else {
      headers[`x-ratelimit-limit-${what}`] = String(window.limit);
      headers[`x-ratelimit-remaining-${what}`] = String(Math.max(0, Math.floor(window.remaining)));
      headers[`x-ratelimit-reset-${what}`] = goDuration(Math.max(0, window.resetAt - now));
    }
  };
  put('requests', snapshot.requests);
  put('tokens', snapshot.tokens);
  if (snapshot.budgetWarnings && snapshot.budgetWarnings.length > 0) {
    headers['x-gengate-budget-warning'] = snapshot.budgetWarnings.join('; ').replace(/[^\x20-\x7e]/g, '?');
  }
  return headers;
}

/** A duration as OpenAI writes it (Go's notation): `120ms`, `1s`, `1.5s`, `6m0s`, `1h2m3s`. */
export function goDuration(ms: number): string {
  const whole = Math.ceil(ms);
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = (whole % 60_000) / 1000;
  const secondsText = `${Number(seconds.toFixed(3))}s`;
  if (hours > 0) return `${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${minutes}m${secondsText}`;
  return secondsText;
}

function rfc3339(at: number): string {
  return new Date(Math.ceil(at / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Installs the step on the root instance: each answer takes its request's snapshot (once) and
 * writes it in the style `styleOf` names (undefined: no headers, e.g. the admin API).
 */
export function installRateLimitHeaders(
  app: FastifyInstance,
  snapshots: { takeSnapshot(requestId: string): RateLimitSnapshot | undefined },
  styleOf: (request: FastifyRequest) => RateLimitHeaderStyle | undefined,
): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const snapshot = snapshots.takeSnapshot(String(request.id));
    if (snapshot) {
      const style = styleOf(request);
      if (style) reply.headers(rateLimitHeaders(snapshot, style, Date.now()));
    }
    done(null, payload);
  });
}
