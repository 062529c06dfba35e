/**
 * What a call costs, in nUSD (`core/money.ts`), from the catalog's integer prices
 * (`routing/integer-price.ts`): integer arithmetic on the token counts and the prices in micro-dollars
 * per million tokens, rounded once (half up) at the end, so the same usage always costs the same
 * integer.
 */
import type { Usage } from '../core/usage.js';
import type { IntegerPrice } from '../routing/integer-price.js';

/** µUSD per million tokens = pUSD per token; one nUSD is 1,000 of them. */
const PICO_PER_NANO = 1000n;

/**
 * Cost in nUSD of the tokens of one call. Cached input is priced on its own: cache reads at the
 * cache-read price, cache writes at the cache-write price, and only the rest at the input price.
 * A call whose input (cached tokens included) exceeds the long-context threshold is billed whole
 * at the tier's rates, as Google and Anthropic bill it. Reasoning tokens are part of
 * `outputTokens` (`core/usage.ts`): billed as output once, never added again.
 */
export function costOf(integerPrice: IntegerPrice | undefined, usage: Usage): number {
  if (!integerPrice) return 0;
  const price = integerPrice.above && usage.inputTokens > integerPrice.above.threshold ? integerPrice.above : integerPrice;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const pico =
    tokens(uncached) * BigInt(price.inputMicros) +
    tokens(cacheRead) * BigInt(price.cacheReadMicros) +
    tokens(cacheWrite) * BigInt(price.cacheWriteMicros) +
    tokens(usage.outputTokens) * BigInt(price.outputMicros);
  return Number((pico + PICO_PER_NANO / 2n) / PICO_PER_NANO);
}

/** What a call answered by a real upstream is charged, in nUSD: its tokens, plus its units (images, seconds) at the per-unit price. */
export function costOfCall(price: IntegerPrice | undefined, usage: Usage | undefined, units: number): number {
  return (usage ? costOf(price, usage) : 0) + unitsCost(price, units);
}

/** The per-unit part of a price (a task's images or seconds), in nUSD; a fractional count of units (seconds) is rounded half up once. */
export function unitsCost(price: IntegerPrice | undefined, units: number): number {
  if (!price?.perUnitNusd || !(units > 0)) return 0;
  return Number.isInteger(units) ? units * price.perUnitNusd : Math.round(units * price.perUnitNusd);
}

function tokens(count: number): bigint {
  return BigInt(Math.max(0, Math.trunc(count)));
}
