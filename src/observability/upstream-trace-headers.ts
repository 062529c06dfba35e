/**
 * The trace context an upstream attempt sends (`traceparent`), carried from the attempt loop to
 * the HTTP client through async context, so that no provider has to pass it along. Only used
 * once traces are on: before that, reading it is one boolean test.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<Readonly<Record<string, string>>>();
let used = false;

/** Runs `fn` (an upstream attempt) with `headers` added to every upstream request it makes. */
export function withUpstreamTraceHeaders<T>(headers: Readonly<Record<string, string>>, fn: () => T): T {
  used = true;
  return current.run(headers, fn);
}

/** The headers of the attempt running now, if traces are on and one is. */
export function upstreamTraceHeaders(): Readonly<Record<string, string>> | undefined {
  return used ? current.getStore() : undefined;
}
