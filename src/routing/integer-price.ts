/**
 * A catalog price as integers, made once when the catalog is loaded (`catalog.ts`):
 * token prices in micro-dollars per million tokens (= pico-dollars per token), the per-unit
 * price in nUSD. The YAML and the admin API keep USD decimals; `parse-model-entry.ts` refuses a
 * price finer than these units, so the conversion here is exact decimal arithmetic, never a
 * float rounded.
 */
import type { ModelPrice } from '../config/types.js';
import { pricePerMillionToMicros, usdToNusd } from '../core/money.js';

export interface IntegerPrice {
  inputMicros: number;
  outputMicros: number;
  cacheReadMicros: number;
  cacheWriteMicros: number;
  perUnitNusd: number;
}

/** The integer form of a price; throws a RangeError naming the field when one is finer than its unit. */
export function integerPrice(price: ModelPrice): IntegerPrice {
  const input = pricePerMillionToMicros(price.input, 'price.input');
  return {
    inputMicros: input,
    outputMicros: pricePerMillionToMicros(price.output, 'price.output'),
    cacheReadMicros: price.cacheRead === undefined ? input : pricePerMillionToMicros(price.cacheRead, 'price.cacheRead'),
    cacheWriteMicros: price.cacheWrite === undefined ? input : pricePerMillionToMicros(price.cacheWrite, 'price.cacheWrite'),
    perUnitNusd: price.perUnit === undefined ? 0 : usdToNusd(price.perUnit, 'price.perUnit'),
  };
}
