/**
 * Keeps failing channels out of rotation for a while. After `failureThreshold` consecutive
 * failures a channel's circuit opens for `cooldownMs`; then one trial request is let through
 * (half-open): success closes the circuit, failure opens it again, and a trial that ends
 * without a verdict (the client went away, or the request itself was refused) lets the next
 * request be the trial.
 */
interface CircuitState {
  failures: number;
  openUntil: number;
  trialInFlight: boolean;
}

export type CircuitStateName = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  private readonly states = new Map<string, CircuitState>();

  constructor(
    private readonly failureThreshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the channel is being kept out right now (open, or its one trial is in flight). */
  isOpen(channel: string): boolean {
    const state = this.states.get(channel);
    if (!state || state.openUntil === 0) return false;
    return this.now() < state.openUntil || state.trialInFlight;
  }

  /** For display: closed (in rotation), open (kept out), or half-open (cooldown over; the next request is, or is in flight as, the trial). */
  state(channel: string): CircuitStateName {
    const state = this.states.get(channel);
    if (!state || state.openUntil === 0) return 'closed';
    return this.now() < state.openUntil ? 'open' : 'half-open';
  }

  /** Notes that a request goes to the channel; past the cooldown that request is the trial. */
  beginAttempt(channel: string): void {
    const state = this.states.get(channel);
    if (state && state.openUntil !== 0 && this.now() >= state.openUntil) state.trialInFlight = true;
  }

  success(channel: string): void {
    this.states.delete(channel);
  }

  failure(channel: string): void {
    let state = this.states.get(channel);
    if (!state) {
      state = { failures: 0, openUntil: 0, trialInFlight: false };
      this.states.set(channel, state);
    }
    state.failures++;
    state.trialInFlight = false;
    if (state.failures >= this.failureThreshold) state.openUntil = this.now() + this.cooldownMs;
  }

  /** An attempt ended with no verdict on the channel's health: a trial in flight is released. */
  inconclusive(channel: string): void {
    const state = this.states.get(channel);
    if (state) state.trialInFlight = false;
  }
}
