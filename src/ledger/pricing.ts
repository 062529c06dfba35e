import type { Usage } from '../core/usage.js';
import type { CatalogEntry } from '../routing/catalog.js';

/**
 * Cost in USD of one call. Cached input is priced on its own: cache reads at the cache-read
 * price, cache writes at the cache-write price, and only the rest at the input price.
 */
export function costOf(price: CatalogEntry['price'] | undefined, usage: Usage): number {
  if (!price) return 0;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const perToken =
    uncached * price.input + cacheRead * (price.cacheRead ?? price.input) + cacheWrite * (price.cacheWrite ?? price.input) + usage.outputTokens * price.output;
  return perToken / 1_000_000;
}

/** What a call answered by a real upstream is charged: its tokens, plus its units (images, seconds) at the per-unit price. */
export function costOfCall(price: CatalogEntry['price'] | undefined, usage: Usage | undefined, units: number): number {
  return (usage ? costOf(price, usage) : 0) + units * (price?.perUnit ?? 0);
}
