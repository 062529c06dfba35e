/**
 * A call's abort signal with cheap listeners. Node 20's EventTarget makes every
 * `addEventListener`/`removeEventListener` pair cost microseconds, and every upstream request
 * needs one pair on its call's signal. A signal made by `callAbort` keeps its listeners in a
 * plain set instead, run by its `abort`; any other signal gets an ordinary event listener.
 */
const listenersOf = new WeakMap<AbortSignal, Set<() => void>>();

export interface CallAbort {
  readonly signal: AbortSignal;
  /** Aborts the signal (once) and runs the listeners registered with `onAbort`. */
  abort(reason?: unknown): void;
}

export function callAbort(): CallAbort {
  const controller = new AbortController();
  const { signal } = controller;
  const listeners = new Set<() => void>();
  listenersOf.set(signal, listeners);
  return {
    signal,
    abort(reason) {
      if (signal.aborted) return;
      controller.abort(reason);
      listenersOf.delete(signal);
      for (const listener of listeners) listener();
      listeners.clear();
    },
  };
}

/** Runs `listener` once when `signal` aborts (not when it already has); the returned function unregisters it. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const listeners = listenersOf.get(signal);
  if (listeners === undefined) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
