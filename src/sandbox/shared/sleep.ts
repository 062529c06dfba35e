import { setTimeout as delay } from 'node:timers/promises';
import { GatewayError } from '../../core/errors.js';

/** The error a sandbox wait ends with when the attempt is aborted (client gone or timeout). */
export function abortedError(signal: AbortSignal): GatewayError {
  if (signal.reason instanceof GatewayError) return signal.reason;
  return new GatewayError('upstream', 'request aborted by the client', { retryable: false, code: 'client_closed', cause: signal.reason });
}

/** Waits `ms` on a timer; rejects with a GatewayError as soon as `signal` aborts. */
export async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw abortedError(signal);
  if (ms <= 0) return;
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    if (signal.aborted) throw abortedError(signal);
    throw error;
  }
}
