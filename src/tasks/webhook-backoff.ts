/**
 * When a failed webhook delivery is tried again: doubling from `baseMs` (5 s, 10 s, 20 s …) up
 * to `maxMs` (10 min), each delay spread ±20 % so receivers that failed together are not all
 * retried in the same instant.
 */
export interface WebhookBackoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_WEBHOOK_BACKOFF: WebhookBackoff = { baseMs: 5_000, maxMs: 10 * 60_000 };

/** The delay after the `attempts`-th failed attempt (1 for the first). */
export function webhookRetryDelayMs(attempts: number, backoff: WebhookBackoff, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** exponent);
  return Math.round(delay * (0.8 + 0.4 * random()));
}
