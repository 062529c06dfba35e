/**
 * Polling for something another process writes a moment later (a usage row, a counter settled
 * after its call's last byte): reads until a condition holds or time runs out, and hands back the
 * last reading so the test asserts on it and a failure shows what was there.
 */

/**
 * Runs `read` every 100 ms until `done` holds of its answer or `timeoutMs` passes; answers the last answer.
 * A read that throws counts as not done yet (another process may be midway through its writes); when
 * time runs out on one that throws, its error is thrown.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let last: { value: T } | { error: unknown };
    try {
      last = { value: await read() };
    } catch (error) {
      last = { error };
    }
    if ('value' in last && done(last.value)) return last.value;
    if (Date.now() >= until) {
      if ('error' in last) throw last.error;
      return last.value;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
