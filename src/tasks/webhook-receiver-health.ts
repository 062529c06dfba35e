/**
 * How each webhook receiver has been behaving, and what that means for its next delivery. A
 * receiver is one owner's host (`<owner> <host:port>`): one tenant's failures at a host it shares
 * with others (a hooks service) never change how another tenant's deliveries there are sent.
 *
 * - Adaptive timeout: after `slowAfterTimeouts` timeouts in a row, deliveries get `slowTimeoutMs`
 *   instead of `timeoutMs`; any answer (even an error status) brings the full timeout back.
 * - Circuit: after `circuitFailures` failures in a row (timeouts, unreachable, non-2xx answers) the
 *   receiver's deliveries are deferred for `circuitCooldownMs` without opening a connection; then
 *   one delivery is sent as a trial (half-open): a success closes the circuit, a failure opens it
 *   again for twice as long, up to `maxCooldownMs`.
 *
 * The state is this process's only, bounded to `maxReceivers` (the least recently used is
 * forgotten); every process learns on its own.
 */
export interface ReceiverHealthSettings {
  timeoutMs: number;
  slowTimeoutMs: number;
  slowAfterTimeouts: number;
  circuitFailures: number;
  circuitCooldownMs: number;
  maxCooldownMs: number;
  maxReceivers: number;
}

/** What one attempt showed about the receiver. */
export type ReceiverVerdict = 'delivered' | 'answered-error' | 'timed-out' | 'unreachable';

type ReceiverAdmission =
  /** Send now, bounded by `timeoutMs`. */
  | { send: true; timeoutMs: number }
  /** Do not connect: the receiver's circuit is open (or its trial is in flight) until `retryAt`. */
  | { send: false; retryAt: number };

interface ReceiverState {
  timeouts: number;
  failures: number;
  /** 0 while closed; else when the next trial may go. */
  openUntil: number;
  cooldownMs: number;
  trialInFlight: boolean;
}

export function receiverKey(owner: string, host: string): string {
  return `${owner} ${host}`;
}

export class WebhookReceiverHealth {
  private readonly states = new Map<string, ReceiverState>();

  constructor(private readonly settings: ReceiverHealthSettings) {}

  /** Whether (and with which timeout) a delivery to the receiver goes out now; past a circuit's cooldown the first one is its trial. */
  admit(receiver: string, now: number): ReceiverAdmission {
    const state = this.touch(receiver);
    if (!state) return { send: true, timeoutMs: this.settings.timeoutMs };
    if (state.openUntil !== 0) {
      if (now < state.openUntil) return { send: false, retryAt: state.openUntil };
      if (state.trialInFlight) return { send: false, retryAt: now + state.cooldownMs };
      state.trialInFlight = true;
    }
    return { send: true, timeoutMs: state.timeouts >= this.settings.slowAfterTimeouts ? this.settings.slowTimeoutMs : this.settings.timeoutMs };
  }

  /** Notes what an attempt showed; true when this failure opened the receiver's circuit (closed until now). */
  record(receiver: string, verdict: ReceiverVerdict, now: number): boolean {
    if (verdict === 'delivered') {
      this.states.delete(receiver);
      return false;
    }
    const state = this.touch(receiver) ?? this.create(receiver);
    state.timeouts = verdict === 'timed-out' ? state.timeouts + 1 : verdict === 'answered-error' ? 0 : state.timeouts;
    state.failures++;
    if (state.trialInFlight) {
      state.trialInFlight = false;
      state.cooldownMs = Math.min(state.cooldownMs * 2, this.settings.maxCooldownMs);
      state.openUntil = now + state.cooldownMs;
    } else if (state.openUntil === 0 && state.failures >= this.settings.circuitFailures) {
      state.openUntil = now + state.cooldownMs;
      return true;
    }
    return false;
  }

  /** An attempt ended with nothing learnt (the dispatcher stopping): its trial, if it was one, is released. */
  release(receiver: string): void {
    const state = this.states.get(receiver);
    if (state) state.trialInFlight = false;
  }

  /** The receiver's state, moved to the most recently used end. */
  private touch(receiver: string): ReceiverState | undefined {
    const state = this.states.get(receiver);
    if (state) {
      this.states.delete(receiver);
      this.states.set(receiver, state);
    }
    return state;
  }

  private create(receiver: string): ReceiverState {
    const state: ReceiverState = { timeouts: 0, failures: 0, openUntil: 0, cooldownMs: this.settings.circuitCooldownMs, trialInFlight: false };
    this.states.set(receiver, state);
    if (this.states.size > this.settings.maxReceivers) this.states.delete(this.states.keys().next().value as string);
    return state;
  }
}
