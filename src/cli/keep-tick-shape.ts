/**
 * Keeps one `process.nextTick` tick object alive for the life of the process, so that V8 keeps
 * the hidden class (map) that every tick object shares.
 *
 * Why: V8 holds map transitions weakly. When a full garbage collection comes while no tick
 * object is alive — during a start, or whenever the process is idle — the tick objects' maps
 * die, and the next tick builds new ones. The inline caches in `nextTick` that define the tick
 * object's properties then see one more map each time, and after a few they go megamorphic for
 * good: every tick then takes V8's generic path, about 0.4–0.6 µs instead of 0.1 µs, and a
 * relayed stream makes dozens of ticks. That happened in most starts of the gateway
 * (docs/performance-notes.md). One live tick object keeps the map, and the caches stay monomorphic.
 *
 * Node has no public handle on a tick object except the `init` hook of async_hooks, so the hook
 * is enabled for one `nextTick` call and disabled at once (no hook runs afterwards).
 */
import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/** Call once, before the application's modules are loaded; later calls do nothing. */
export function keepTickShape(): void {
  if (kept) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && kept === undefined) kept = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
}

function noop(): void {}
