/**
 * Runs `count` upstream jobs concurrently; the first failure aborts the others (their signal
 * carries that error) and is what the caller sees.
 */
export async function runAllOrAbort<T>(count: number, parent: AbortSignal, job: (index: number, signal: AbortSignal) => Promise<T>): Promise<T[]> {
  const siblings = new AbortController();
  const signal = AbortSignal.any([parent, siblings.signal]);
  const jobs = Array.from({ length: count }, (_, index) =>
    job(index, signal).catch((error: unknown) => {
      if (!siblings.signal.aborted) siblings.abort(error);
      throw error;
    }),
  );
  try {
    return await Promise.all(jobs);
  } catch (error) {
    // Let the aborted siblings settle (and clean up upstream) before the attempt ends.
    await Promise.allSettled(jobs);
    throw error;
  }
}
