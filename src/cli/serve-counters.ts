/** The primary's side of `IpcCounterStore`: runs a worker's counter call on the one shared store and answers it. */
import type { CounterStore } from '../limits/contract.js';
import { COUNTER_METHODS, type PrimaryMessage } from './cluster-messages.js';

export async function serveCounters(store: CounterStore, request: { id: unknown; method: unknown; args: unknown }): Promise<PrimaryMessage | undefined> {
  const { id, method, args } = request;
  if (typeof id !== 'number') return undefined;
  if (typeof method !== 'string' || !COUNTER_METHODS.has(method) || !Array.isArray(args)) {
    return { gengate: 'counters-reply', id, ok: false, name: 'RangeError', message: `unknown counter call ${String(method)}` };
  }
  try {
    const run = store[method as keyof CounterStore] as (...params: unknown[]) => Promise<unknown>;
    const value = await run.apply(store, args);
    return { gengate: 'counters-reply', id, ok: true, value };
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    return { gengate: 'counters-reply', id, ok: false, name: failure.name, message: failure.message };
  }
}
