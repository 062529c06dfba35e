/**
 * A catalog price as integers, made once when the catalog is loaded (`catalog.ts`):
 * token prices in micro-dollars per million tokens (= pico-dollars per token), the per-unit
 * price in nUSD. The YAML and the admin API keep USD decimals; `parse-model-entry.ts` refuses a
 * price finer than these units, so the conversion here is exact decimal arithmetic, never a
 * float rounded.
 */
import type { ModelPrice } from '../config/types.js';
import { pricePerMillionToMicros, usdToNusd } from '../core/money.js';

/** The four token prices of one tier, µUSD per million tokens. */
export interface TokenRates {
  inputMicros: number;
  outputMicros: number;
  cacheReadMicros: number;
  cacheWriteMicros: number;
}

export interface IntegerPrice extends TokenRates {
  perUnitNusd: number;
  /** The long-context tier: a call whose input tokens exceed `threshold` is billed whole at these rates. */
  above?: TokenRates & { threshold: number };
}

/** The integer form of a price; throws a RangeError naming the field when one is finer than its unit. */
export function integerPrice(price: ModelPrice): IntegerPrice {
  const integer: IntegerPrice = {
    ...tokenRates(price, 'price'),
    perUnitNusd: price.perUnit === undefined ? 0 : usdToNusd(price.perUnit, 'price.perUnit'),
  };
  if (price.above) integer.above = { threshold: price.above.threshold, ...tokenRates(price.above, 'price.above') };
  return integer;
}

/** A cache price not given is the input price of the same tier. */
function tokenRates(price: { input: number; output: number; cacheRead?: number; cacheWrite?: number }, where: string): TokenRates {
  const input = pricePerMillionToMicros(price.input, `${where}.input`);
  return {
    inputMicros: input,
    outputMicros: pricePerMillionToMicros(price.output, `${where}.output`),
    cacheReadMicros: price.cacheRead === undefined ? input : pricePerMillionToMicros(price.cacheRead, `${where}.cacheRead`),
    cacheWriteMicros: price.cacheWrite === undefined ? input : pricePerMillionToMicros(price.cacheWrite, `${where}.cacheWrite`),
  };
}
