/**
 * What a full media quota answers: `insufficient_quota` (429 in every surface, in its own
 * shape), not retryable on another channel, with a code naming which limit was reached. Typed
 * `policy.budget` where raised: one met while an upstream's answer is stored stays the policy's.
 */
import { GatewayError } from '../core/errors.js';

const DAY_MS = 86_400_000;

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}

/** The owner keeps as much media as it may. */
export function keptQuotaFull(kept: number, quota: number): GatewayError {
  return new GatewayError(
    'insufficient_quota',
    `Media quota reached: this account keeps ${formatBytes(kept)} of its ${formatBytes(quota)} of stored media. Older files expire with the retention; deleting tasks frees theirs.`,
    { code: 'media_quota_exceeded', errorType: 'policy.budget' },
  );
}

/** The owner wrote as much media today (UTC) as it may; says how long until the day turns. */
export function dailyQuotaFull(written: number, limit: number, now: number): GatewayError {
  const secondsLeft = Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));
  return new GatewayError(
    'insufficient_quota',
    `Daily media quota reached: this account wrote ${formatBytes(written)} of its ${formatBytes(limit)} of media today (UTC); it resets at midnight UTC.`,
    { code: 'media_daily_quota_exceeded', retryAfter: secondsLeft, errorType: 'policy.budget' },
  );
}

/** One file larger than the whole store, or a store whose space is all held by writes in progress. */
export function storeFull(bytes: number, max: number): GatewayError {
  return new GatewayError('insufficient_quota', `The media store cannot take ${formatBytes(bytes)} more (its cap is ${formatBytes(max)}).`, {
    code: 'media_store_full',
    errorType: 'policy.budget',
  });
}

export function utcDay(now: number): number {
  return Math.floor(now / DAY_MS);
}

/** A media-quota refusal, told apart from other failures to store (a task then ends with it rather than retrying). */
export function isMediaQuotaError(error: unknown): error is GatewayError {
  return error instanceof GatewayError && error.kind === 'insufficient_quota' && (error.code?.startsWith('media_') ?? false);
}
