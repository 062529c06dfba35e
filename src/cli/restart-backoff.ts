/**
 * When a dead worker is started again: at once after a worker that had run a while, then
 * doubling from 250 ms up to 10 s while its replacements keep dying young, so a crash loop
 * costs a few starts a minute rather than a spinning core.
 */

/** A worker that ran at least this long before dying resets the count of quick deaths. */
export const HEALTHY_RUN_MS = 10_000;

export function restartDelayMs(quickDeaths: number): number {
  if (quickDeaths <= 0) return 0;
  return Math.min(10_000, 250 * 2 ** Math.min(quickDeaths - 1, 6));
}

/** The quick-death count after a worker that lived `ranMs` died. */
export function nextQuickDeaths(previous: number, ranMs: number): number {
  return ranMs >= HEALTHY_RUN_MS ? 0 : previous + 1;
}
