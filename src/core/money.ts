/**
 * gengate's one unit of money: the nano-dollar (nUSD, 10⁻⁹ USD), always a safe integer. Prices
 * are written in USD (per million tokens, or per unit) and turned into integers once, here;
 * every cost, reservation, budget and total after that is integer arithmetic, so a report is
 * reproducible to the unit. 2⁵³ nUSD is about 9 million USD: the ceiling of any one total
 * that JavaScript adds up (PostgreSQL's BIGINT sums go far beyond).
 */

/** 1 USD in nUSD. */
export const NUSD_PER_USD = 1_000_000_000;

/** Decimal places a price per million tokens may have: micro-dollars per million tokens (= pico-dollars per token). */
const PRICE_DECIMALS = 6;
/** Decimal places a USD amount (a per-unit price, a budget) may have: nano-dollars. */
const AMOUNT_DECIMALS = 9;

/**
 * A USD amount given in decimal (a config number or a string such as `"12.50"`) as nUSD; throws
 * a RangeError naming `what` when it is negative, not finite, or finer than a nano-dollar.
 */
export function usdToNusd(usd: number | string, what = 'amount'): number {
  return scaledInteger(usd, AMOUNT_DECIMALS, what);
}

/** A price in USD per million tokens as micro-dollars per million tokens (an integer). */
export function pricePerMillionToMicros(usdPerMillion: number | string, what = 'price'): number {
  return scaledInteger(usdPerMillion, PRICE_DECIMALS, what);
}

/** nUSD as a decimal USD string with all nine places (`"0.000012500"`): exact, for CSV and logs. */
export function formatNusd(nusd: number): string {
  const sign = nusd < 0 ? '-' : '';
  const digits = String(Math.abs(nusd)).padStart(AMOUNT_DECIMALS + 1, '0');
  return `${sign}${digits.slice(0, -AMOUNT_DECIMALS)}.${digits.slice(-AMOUNT_DECIMALS)}`;
}

/** nUSD as a JSON number of USD, for display only (never summed again). */
export function nusdToUsd(nusd: number): number {
  return nusd / NUSD_PER_USD;
}

function scaledInteger(value: number | string, decimals: number, what: string): number {
  const text = typeof value === 'number' ? decimalText(value) : value.trim();
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new RangeError(`${what} must be a non-negative decimal number of USD, got ${JSON.stringify(value)}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new RangeError(`${what} has more than ${decimals} decimal places: ${JSON.stringify(value)}`);
  const scaled = Number(match[1] + fraction.padEnd(decimals, '0'));
  if (!Number.isSafeInteger(scaled)) throw new RangeError(`${what} is too large: ${JSON.stringify(value)}`);
  return scaled;
}

/** A finite number's shortest decimal text without an exponent (`1e-7` → `0.0000001`). */
function decimalText(value: number): string {
  if (!Number.isFinite(value) || value < 0) return String(value);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}
