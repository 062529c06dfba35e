/**
 * The error a guarded counter store throws when the store cannot answer in time and the failure
 * policy of a hold's kind is `closed`. Callers map it to 503: `budget_unavailable` when a spend
 * hold is among `closedTypes`, a plain 503 otherwise.
 */
import type { Hold } from './contract.js';

export class CounterStoreUnavailable extends Error {
  constructor(
    /** The kinds of hold whose policy refused the call ([] for reads such as peek or seed). */
    readonly closedTypes: readonly Hold['type'][],
    readonly reason: string,
  ) {
    super(`counter store unavailable: ${reason}`);
    this.name = 'CounterStoreUnavailable';
  }

  /** Whether a budget is what could not be checked (503 `budget_unavailable`). */
  get budget(): boolean {
    return this.closedTypes.includes('spend');
  }
}
