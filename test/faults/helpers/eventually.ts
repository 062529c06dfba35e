/**
 * Polling for something another process writes a moment later (a usage row, a counter settled
 * after its call's last byte): reads until a condition holds or time runs out, and hands back the
 * last reading so the test asserts on it and a failure shows what was there.
 */

/** Runs `read` every 100 ms until `done` holds of its answer or `timeoutMs` passes; answers the last answer. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
