/**
 * The end-to-end deadline of one asynchronous upstream job (submit, polls and the waits between
 * them): the channel's `timeoutMs`, counted from the start of the attempt.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { GatewayError } from '../../core/errors.js';

export class AttemptDeadline {
  private readonly endsAt: number;

  constructor(
    readonly timeoutMs: number,
    now = Date.now(),
  ) {
    this.endsAt = now + timeoutMs;
  }

  remainingMs(): number {
    return Math.max(0, this.endsAt - Date.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** Retryable: another channel may be faster. */
  timeoutError(what: string): GatewayError {
    return new GatewayError('timeout', `${what} did not finish within ${this.timeoutMs} ms`, { retryable: true });
  }

  /** Waits `ms`, cut short by the deadline; rejects as soon as `signal` aborts. */
  async sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw abortError(signal);
    const wait = Math.min(ms, this.remainingMs());
    if (wait <= 0) return;
    try {
      await delay(wait, undefined, { signal });
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      throw error;
    }
  }
}

/** Why an aborted wait ended: the reason given (a sibling task's error) or the client leaving. */
export function abortError(signal: AbortSignal): GatewayError {
  if (signal.reason instanceof GatewayError) return signal.reason;
  return new GatewayError('upstream', 'request aborted by the client', { retryable: false, code: 'client_closed', cause: signal.reason });
}
