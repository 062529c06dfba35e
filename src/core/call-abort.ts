/**
 * A call's abort signal with cheap listeners. Node 20's EventTarget makes every
 * `addEventListener`/`removeEventListener` pair cost microseconds, and every upstream request
 * needs one pair on its call's signal. A signal made by `callAbort` keeps its listeners in a
 * plain set instead, run by its `abort`; any other signal gets an ordinary event listener.
 * The gateway can also abort such a signal when it holds only the signal (`abortCall`).
 */
interface LiveAbort {
  listeners: Set<() => void>;
  abort(reason?: unknown): void;
}

const liveAborts = new WeakMap<AbortSignal, LiveAbort>();

export interface CallAbort {
  readonly signal: AbortSignal;
  /** Aborts the signal (once) and runs the listeners registered with `onAbort`. */
  abort(reason?: unknown): void;
}

export function callAbort(): CallAbort {
  const controller = new AbortController();
  const { signal } = controller;
  const listeners = new Set<() => void>();
  const abort = (reason?: unknown): void => {
    if (signal.aborted) return;
    controller.abort(reason);
    liveAborts.delete(signal);
    for (const listener of listeners) listener();
    listeners.clear();
  };
  liveAborts.set(signal, { listeners, abort });
  return { signal, abort };
}

/** Aborts a signal made by `callAbort` with `reason`; false for any other signal, and for one already aborted. */
export function abortCall(signal: AbortSignal, reason: unknown): boolean {
  const live = liveAborts.get(signal);
  if (live === undefined) return false;
  live.abort(reason);
  return true;
}

/** Runs `listener` once when `signal` aborts (not when it already has); the returned function unregisters it. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const listeners = liveAborts.get(signal)?.listeners;
  if (listeners === undefined) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}
