/**
 * The trace context an upstream attempt sends (`traceparent`), carried from the attempt loop to
 * the HTTP client by the call's abort signal, which every provider hands the client already:
 * a call's attempts run one after another, so the signal names the attempt running now. (Async
 * context would carry it too, but on Node 20 it turns on promise hooks for the whole process.)
 * Before traces are on, reading it is one boolean test.
 */
const bySignal = new WeakMap<AbortSignal, Readonly<Record<string, string>>>();
let used = false;

/** Runs `fn` (an upstream attempt) with `headers` added to the upstream requests made with `signal`. */
export async function withUpstreamTraceHeaders<T>(signal: AbortSignal, headers: Readonly<Record<string, string>>, fn: () => Promise<T>): Promise<T> {
  used = true;
  bySignal.set(signal, headers);
  try {
    return await fn();
  } finally {
    if (bySignal.get(signal) === headers) bySignal.delete(signal);
  }
}

/** The trace headers of the attempt that owns `signal`, if traces are on and one is running. */
export function upstreamTraceHeaders(signal: AbortSignal): Readonly<Record<string, string>> | undefined {
  return used ? bySignal.get(signal) : undefined;
}
