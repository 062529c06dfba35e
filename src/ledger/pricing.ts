/**
 * What a call costs, in nUSD (`money.ts`), from the price table: integer arithmetic on the
 * token counts and the prices in micro-dollars per million tokens, rounded once (half up) at
 * the end, so the same usage always costs the same integer.
 */
import type { Usage } from '../core/usage.js';
import type { CatalogEntry } from '../routing/catalog.js';
import { NUSD_PER_USD, pricePerMillionToMicros } from './money.js';

type Price = CatalogEntry['price'];

/** µUSD per million tokens = pUSD per token; one nUSD is 1,000 of them. */
const PICO_PER_NANO = 1000n;

/**
 * Cost in nUSD of the tokens of one call. Cached input is priced on its own: cache reads at the
 * cache-read price, cache writes at the cache-write price, and only the rest at the input price.
 */
export function costOf(price: Price | undefined, usage: Usage): number {
  if (!price) return 0;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const input = micros(price.input);
  const pico =
    tokens(uncached) * input +
    tokens(cacheRead) * micros(price.cacheRead ?? price.input) +
    tokens(cacheWrite) * micros(price.cacheWrite ?? price.input) +
    tokens(usage.outputTokens) * micros(price.output);
  return Number((pico + PICO_PER_NANO / 2n) / PICO_PER_NANO);
}

/** What a call answered by a real upstream is charged, in nUSD: its tokens, plus its units (images, seconds) at the per-unit price. */
export function costOfCall(price: Price | undefined, usage: Usage | undefined, units: number): number {
  return (usage ? costOf(price, usage) : 0) + unitsCost(price, units);
}

/** The per-unit part of a price (a task's images or seconds), in nUSD, rounded half up. */
export function unitsCost(price: Price | undefined, units: number): number {
  if (!price?.perUnit || units <= 0) return 0;
  return Math.round(units * Math.round(price.perUnit * NUSD_PER_USD));
}

/** The table's price as µUSD per million tokens; a price finer than that (refused where prices are set) is rounded to it. */
function micros(usdPerMillion: number): bigint {
  try {
    return BigInt(pricePerMillionToMicros(usdPerMillion));
  } catch {
    return BigInt(Math.max(0, Math.round(usdPerMillion * 1e6)));
  }
}

function tokens(count: number): bigint {
  return BigInt(Math.max(0, Math.trunc(count)));
}
