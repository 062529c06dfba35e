/**
 * Limits on password guesses, kept in the store so every replica sees them. A stranger can run
 * up the count of an (email, address) pair, of an address, and of an email — so none of these
 * holds back a known device of the account (admin/known-device.ts), which answers only for its
 * own failures. Without a known device, an attempt is refused once its pair, its address or its
 * email is over the limit: a stranger's guesses lock out only that stranger's address, and the
 * owner's new browsers only after guesses from many addresses. A session that keeps guessing
 * its account's current password is refused too (and ended by the caller).
 */
import { isIP } from 'node:net';
import { GatewayError } from '../core/errors.js';
import type { LoginFailure, LoginFailuresRepository } from '../store/login-failures-repository.js';

const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failures allowed in the window. */
const MAX_FAILURES_PER_PAIR = 5;
const MAX_FAILURES_PER_ADDRESS = 20;
const MAX_FAILURES_PER_EMAIL = 50;
const MAX_FAILURES_PER_DEVICE = 5;
const MAX_FAILURES_PER_SESSION = 5;

export function tooManyAttempts(message = 'Too many failed sign-ins; wait a few minutes and try again.'): GatewayError {
  return new GatewayError('rate_limit', message, { code: 'too_many_attempts', retryAfter: Math.ceil(LOGIN_WINDOW_MS / 1000) });
}

/** The address an attempt counts under: an IPv6 client holds a whole /64, so that is one address. */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [left, right] = ip.split('%')[0].toLowerCase().split('::');
  const head = left ? left.split(':') : [];
  const tail = right ? right.split(':') : [];
  const groups = right === undefined ? head : [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export class SignInThrottle {
  constructor(private readonly failures: LoginFailuresRepository) {}

  /** Throws 429 when this sign-in may not be checked now. */
  async checkSignIn(attempt: LoginFailure, now = Date.now()): Promise<void> {
    const since = now - LOGIN_WINDOW_MS;
    if (attempt.device !== undefined && (await this.failures.countSince({ device: attempt.device }, since)) < MAX_FAILURES_PER_DEVICE) return;
    const [pair, address, email] = await Promise.all([
      this.failures.countSince({ email: attempt.email, ip: attempt.ip }, since),
      this.failures.countSince({ ip: attempt.ip }, since),
      this.failures.countSince({ email: attempt.email }, since),
    ]);
    if (pair >= MAX_FAILURES_PER_PAIR || address >= MAX_FAILURES_PER_ADDRESS || email >= MAX_FAILURES_PER_EMAIL) throw tooManyAttempts();
  }

  /** Whether a session (its failures' `device`, `session:<id>`) has used up its guesses of the current password. */
  async sessionExhausted(device: string, now = Date.now()): Promise<boolean> {
    return (await this.failures.countSince({ device }, now - LOGIN_WINDOW_MS)) >= MAX_FAILURES_PER_SESSION;
  }

  fail(attempt: LoginFailure, now = Date.now()): Promise<void> {
    return this.failures.record(attempt, now);
  }

  succeed(attempt: LoginFailure): Promise<void> {
    return this.failures.forgive(attempt.email, attempt.ip, attempt.device);
  }

  sweep(now = Date.now()): Promise<void> {
    return this.failures.deleteBefore(now - LOGIN_WINDOW_MS);
  }
}
